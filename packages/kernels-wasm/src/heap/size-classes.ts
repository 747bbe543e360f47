// Size classes for the segregated free lists, in the style of TLSF: exact
// classes for tiny blocks, then four classes per power of two. Four per octave
// bounds the waste of "take any block of a big enough class" at 25%, and the
// class of a size is a few integer operations, with no table.
//
// Sizes are counted in units of ALIGNMENT (16 bytes); every block is a whole
// number of units. A block of u units belongs to class c when
// classMin(c) <= u < classMin(c + 1).
import { ALIGNMENT, PAGE_BYTES, WASM32_MAX_PAGES } from './constants.js';

/** Classes below this hold exactly one size each (1..7 units, 16..112 bytes). */
const EXACT_CLASSES = 8;
/** Subdivisions of each power of two above the exact classes. */
const SUB_CLASSES = 4;
const SUB_LOG2 = 2;

/** The largest block possible: the whole 4 GiB memory, in units. */
const MAX_UNITS = (WASM32_MAX_PAGES * PAGE_BYTES) / ALIGNMENT;

function log2Floor(u: number): number {
  // Math.clz32 works on 32 bits; units stay below 2^29, so this is exact.
  return 31 - Math.clz32(u);
}

/** The class that a free block of `units` units is filed under. */
function classOf(units: number): number {
  if (units < EXACT_CLASSES) return units;
  const fl = log2Floor(units);
  const sl = (units >>> (fl - SUB_LOG2)) & (SUB_CLASSES - 1);
  return EXACT_CLASSES + (fl - 3) * SUB_CLASSES + sl;
}

/** The smallest size, in units, filed under class `c`. */
function classMin(c: number): number {
  if (c < EXACT_CLASSES) return c;
  const k = c - EXACT_CLASSES;
  const fl = 3 + Math.floor(k / SUB_CLASSES);
  const sl = k % SUB_CLASSES;
  return (SUB_CLASSES + sl) * 2 ** (fl - SUB_LOG2);
}

/** Enough classes for any block that fits in a wasm32 memory. */
const CLASS_COUNT = classOf(MAX_UNITS) + 1;

export { classOf, classMin, CLASS_COUNT, MAX_UNITS };
