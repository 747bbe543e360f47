// NumPy basic indexing (`x.get('1:-1, ::2')`, stdlib Slice objects, integers)
// resolved against a shape into a strided view. Parsing is stdlib's.
import { ShapeError } from './errors.js';
import { axisLength, formatShape } from './shape.js';
import type { Shape } from './shape.js';
import { isStdMultiSlice, isStdSlice, stdSlice } from '../util/stdlib.js';
import type { StdMultiSlice, StdSlice } from '../util/stdlib.js';
import { Lru } from 'kernels-wasm/lru';

type IndexArg = string | number | null | StdSlice | StdMultiSlice;

/** One axis of an index after normalisation: an integer drops the axis, a range keeps it. */
type AxisIndex = { readonly kind: 'int'; readonly index: number }
  | { readonly kind: 'range'; readonly start: number; readonly step: number; readonly length: number };

const SLICE_ERRORS: Record<string, string> = {
  ERR_SLICE_INVALID_INCREMENT: 'a slice step cannot be zero',
  ERR_SLICE_INVALID_SUBSEQUENCE: 'it is not a slice expression like "1:-1, ::2, 3, ..."',
  ERR_SLICE_TOO_MANY_DIMENSIONS: 'it has more indices than the array has axes',
  ERR_SLICE_OUT_OF_BOUNDS: 'an index is out of bounds',
  ERR_SLICE_INVALID_ELLIPSIS: 'the ellipsis "..." may appear only once',
};

function describeOne(a: unknown): string {
  if (typeof a === 'string') return JSON.stringify(a);
  if (isStdSlice(a)) return `Slice(${a.start}:${a.stop}:${a.step})`;
  if (isStdMultiSlice(a)) return `MultiSlice(${a.data.map(describeOne).join(', ')})`;
  return String(a);
}

function describe(args: readonly IndexArg[]): string {
  return args.map(describeOne).join(', ');
}

/** Turns the arguments of get() into one list of per-axis entries, integers kept apart from slices. */
function toEntries(args: readonly IndexArg[], shape: Shape): Array<StdSlice | number> {
  let raw: ReadonlyArray<StdSlice | number | null>;
  if (args.length === 1 && typeof args[0] === 'string') {
    // None as a slice bound is NumPy's default bound ('1:None' is '1:').
    const text = args[0].split(',').map((p) => (p.includes(':') ? p.replace(/\bNone\b/g, '') : p)).join(',');
    const parts = text.split(',').length;
    const padded = text.includes('...') || parts >= shape.length || text.trim() === '' ? text : `${text},...`;
    const ms = stdSlice().base.seq2multislice(padded.trim() === '' ? '...' : padded, [...shape], false);
    if ('code' in ms) {
      if (text.split(',').some((p) => /^\s*(None|(np\.)?newaxis)\s*$/.test(p))) {
        throw new TypeError(`index ${JSON.stringify(text)}: None (NumPy's newaxis) adds an axis, which get() takes and a write cannot; ` +
          'write through an index without it (and expandDims the value where it needs the axis)');
      }
      // Too many indices is a shape problem (NumPy's IndexError), the same as for Slice arguments below.
      const E = ms.code === 'ERR_SLICE_TOO_MANY_DIMENSIONS' ? ShapeError : TypeError;
      throw new E(`index ${JSON.stringify(text)} for shape ${formatShape(shape)} is invalid: ${SLICE_ERRORS[ms.code] ?? ms.code}`);
    }
    raw = ms.data;
  } else if (args.length === 1 && isStdMultiSlice(args[0])) {
    raw = args[0].data;
  } else {
    for (const a of args) {
      if (!(a === null || typeof a === 'number' || isStdSlice(a))) {
        throw new TypeError(`get() takes one index string, one MultiSlice, or integers, null and stdlib Slice objects; got ${describe(args)}`);
      }
    }
    raw = args as ReadonlyArray<StdSlice | number | null>;
  }
  if (raw.length > shape.length) {
    throw new ShapeError(`too many indices for an array of shape ${formatShape(shape)}: ${raw.length} given (${describe(args)})`);
  }
  const full = [...raw];
  while (full.length < shape.length) full.push(null);
  return full.map((e) => (e === null ? new (stdSlice().Slice)() : e));
}

/**
 * An index string resolved against a shape, by both: a loop that slices
 * arrays of one shape the same way each time (x.get('1:') - x.get(':-1'))
 * parses each string once. Resolutions are frozen, so callers share them.
 */
const resolved = new Lru<string, readonly AxisIndex[]>({ max: 256 });

function resolveIndex(args: readonly IndexArg[], shape: Shape): readonly AxisIndex[] {
  if (args.length !== 1 || typeof args[0] !== 'string') return resolveEntries(args, shape);
  const key = `${shape.join(',')}|${args[0]}`;
  let r = resolved.get(key);
  if (!r) resolved.set(key, (r = Object.freeze(resolveEntries(args, shape).map((e) => Object.freeze(e)))));
  return r;
}

function resolveEntries(args: readonly IndexArg[], shape: Shape): AxisIndex[] {
  const entries = toEntries(args, shape);
  return entries.map((e, axis) => {
    const size = axisLength(shape, axis);
    if (typeof e === 'number') {
      if (!Number.isInteger(e)) throw new TypeError(`index ${e} on axis ${axis} must be an integer`);
      if (e < -size || e >= size) {
        throw new RangeError(`index ${e} is out of bounds for axis ${axis} with size ${size} (shape ${formatShape(shape)})`);
      }
      return { kind: 'int', index: e < 0 ? e + size : e };
    }
    const ms = stdSlice().base.normalizeMultiSlice(new (stdSlice().MultiSlice)(e), [size], false);
    if ('code' in ms) throw new TypeError(`slice on axis ${axis} is invalid: ${SLICE_ERRORS[ms.code] ?? ms.code}`);
    const s = ms.data[0] as StdSlice;
    const step = s.step ?? 1;
    const start = s.start ?? (step > 0 ? 0 : size - 1);
    const stop = s.stop ?? -1; // null stop with a negative step runs past index 0
    const length = Math.max(0, Math.ceil((stop - start) / step));
    return { kind: 'range', start: length === 0 ? 0 : start, step, length };
  });
}

/** Labels of the resolutions `resolved` keeps, made once each. */
const labels = new WeakMap<readonly AxisIndex[], string>();

/** Text of a resolved index, for printers. */
function indexLabel(index: readonly AxisIndex[]): string {
  let label = labels.get(index);
  if (label === undefined) {
    label = index.map((e) => (e.kind === 'int' ? String(e.index) : `${e.start}:${e.step}:${e.length}`)).join(', ');
    if (Object.isFrozen(index)) labels.set(index, label);
  }
  return label;
}

export { resolveIndex, indexLabel };
export type { IndexArg, AxisIndex };
