// Writes a launch block (args-layout.ts): the header, the shape, each array's
// pointer and strides, and each random array's key and stream.
import { ARGS, GATHER_WORDS_BYTES, RANDOM_WORDS_BYTES, arrayPtrOffset, arrayStrideOffset } from './args-layout.js';
import type { LaunchArray } from './launch-types.js';
import { at } from '../internal-error.js';

/** The header fields of a launch block. */
interface Header {
  readonly total: number;
  readonly blockSize: number;
  readonly partials: number;
  readonly segment: number;
  readonly segmentLcm: number;
}

/** Writes a launch block: header, shape, then each array's pointer and strides. */
function writeLaunchBlock(words: Int32Array, at: number, h: Header, shape: readonly number[], arrays: readonly LaunchArray[]): void {
  const put = (byteOffset: number, v: number): void => { words[(at + byteOffset) >>> 2] = v; };
  put(ARGS.total, h.total);
  put(ARGS.blockSize, h.blockSize);
  put(ARGS.flagDivide, 0);
  put(ARGS.flagInvalid, 0);
  put(ARGS.partials, h.partials);
  put(ARGS.segment, h.segment);
  put(ARGS.segmentLcm, h.segmentLcm | 0);
  put(ARGS.claim, 0);
  put(ARGS.flagIndex, 0);
  shape.forEach((s, d) => put(ARGS.shape + 4 * d, s));
  arrays.forEach((a, k) => {
    put(arrayPtrOffset(shape.length, k), a.ptr);
    a.strides.forEach((s, d) => put(arrayStrideOffset(shape.length, k, d), s));
  });
}

/** A launch gives key and stream exactly for the spec's random arrays (their words' place and count come from the spec). */
function checkRandomArrays(spec: ReadonlyArray<{ random?: true }>, arrays: readonly LaunchArray[], what: string): void {
  spec.forEach((a, k) => {
    if (Boolean(a.random) !== Boolean(arrays[k]?.random)) {
      throw new RangeError(`${what}: array ${k} is ${a.random ? '' : 'not '}a random array in the kernel, so it ${a.random ? 'needs' : 'takes no'} random words (key and stream)`);
    }
  });
}

/** Writes each random array's key and stream, in array order, from byte address `at`. */
function writeRandomWords(words: Int32Array, at: number, arrays: readonly LaunchArray[]): void {
  let k = 0;
  for (const a of arrays) {
    if (!a.random) continue;
    const [k0, k1] = a.random.key;
    const [s0, s1] = a.random.stream;
    words.set([k0 | 0, k1 | 0, s0 | 0, s1 | 0], (at + RANDOM_WORDS_BYTES * k++) >>> 2);
  }
}

/** A launch gives axis length and stride exactly for the spec's gathered arrays, and lengths that an i32 index reaches. */
function checkGatheredArrays(spec: ReadonlyArray<{ gathered?: true }>, arrays: readonly LaunchArray[], what: string): void {
  spec.forEach((a, k) => {
    const g = arrays[k]?.gather;
    if (Boolean(a.gathered) !== Boolean(g)) {
      throw new RangeError(`${what}: array ${k} is ${a.gathered ? '' : 'not '}a gathered array in the kernel, so it ${a.gathered ? 'needs' : 'takes no'} gather words (axis length and stride)`);
    }
    if (g && (!Number.isInteger(g.length) || g.length < 0 || g.length > 0x7fffffff || !Number.isInteger(g.stride))) {
      throw new RangeError(`${what}: array ${k}'s gathered axis needs an integer length in [0, 2^31) and an integer stride; got ${JSON.stringify(g)}`);
    }
  });
}

/** Writes each gathered array's axis length and element stride, in array order, from byte address `at`. */
function writeGatherWords(words: Int32Array, at: number, arrays: readonly LaunchArray[]): void {
  let k = 0;
  for (const a of arrays) {
    if (!a.gather) continue;
    words.set([a.gather.length | 0, a.gather.stride | 0], (at + GATHER_WORDS_BYTES * k++) >>> 2);
  }
}

/** Whether `strides` walk `shape` row-major without gaps (axes of length 1 may have any stride). */
function isRowMajor(shape: readonly number[], strides: readonly number[]): boolean {
  let expect = 1;
  for (let d = shape.length - 1; d >= 0; d--) {
    const n = at(shape, d, 'axis');
    if (n !== 1 && strides[d] !== expect) return false;
    expect *= n;
  }
  return true;
}

export { writeLaunchBlock, writeRandomWords, writeGatherWords, checkRandomArrays, checkGatheredArrays, isRowMajor };
