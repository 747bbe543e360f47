// The reference evaluator's value: a contiguous row-major typed array.
import { dtypeInfo } from '../ir/dtypes.js';
import { elementConverter } from '../ir/cast-value.js';
import type { DType, TypedArray } from '../ir/dtypes.js';
import type { ViewMap } from '../ir/node.js';
import { sizeOf } from '../ir/shape.js';
import type { Shape } from '../ir/shape.js';

interface Dense {
  readonly dtype: DType;
  readonly shape: Shape;
  readonly data: TypedArray;
}

function allocDense(dtype: DType, shape: Shape): Dense {
  return { dtype, shape, data: new (dtypeInfo(dtype).ctor)(sizeOf(shape)) };
}

/**
 * Calls `body(i, o0, o1, o2)` for every element i of `shape` in row-major order,
 * with o_k the flat index into operand k under its (strides, offset) map.
 * The inner axis is a plain loop; outer axes advance an odometer.
 */
function forEachStrided(
  shape: Shape,
  maps: readonly ViewMap[],
  body: (i: number, o0: number, o1: number, o2: number) => void,
): void {
  const n = sizeOf(shape);
  if (n === 0) return;
  const nd = shape.length;
  const s = (k: number, ax: number): number => maps[k]?.strides[ax] ?? 0;
  const base = [maps[0]?.offset ?? 0, maps[1]?.offset ?? 0, maps[2]?.offset ?? 0];
  if (nd === 0) {
    body(0, base[0]!, base[1]!, base[2]!);
    return;
  }
  const inner = shape[nd - 1]!;
  const i0 = s(0, nd - 1);
  const i1 = s(1, nd - 1);
  const i2 = s(2, nd - 1);
  const counter = new Array<number>(nd - 1).fill(0);
  const off = [...base];
  for (let row = 0, i = 0; i < n; row++) {
    let o0 = off[0]!;
    let o1 = off[1]!;
    let o2 = off[2]!;
    for (let j = 0; j < inner; j++, i++) {
      body(i, o0, o1, o2);
      o0 += i0;
      o1 += i1;
      o2 += i2;
    }
    // Advance the odometer over the outer axes.
    for (let ax = nd - 2; ax >= 0; ax--) {
      counter[ax]!++;
      for (let k = 0; k < 3; k++) off[k]! += s(k, ax);
      if (counter[ax]! < shape[ax]!) break;
      for (let k = 0; k < 3; k++) off[k]! -= s(k, ax) * shape[ax]!;
      counter[ax] = 0;
    }
  }
}

/**
 * `data` as integers of its width where it holds float32, for copies: a
 * float32 read into a JS number is widened to float64, which quiets a
 * signalling NaN (NumPy's copies keep it); integers move the bits as they are.
 */
function asBits(data: TypedArray): TypedArray {
  return data instanceof Float32Array ? new Uint32Array(data.buffer, data.byteOffset, data.length) : data;
}

/** Copies a strided window of `src` into a new contiguous array of `shape`. */
function gather(src: Dense, shape: Shape, view: ViewMap, dtype: DType = src.dtype): Dense {
  const out = allocDense(dtype, shape);
  // Bits only where no conversion happens: a gather into another dtype converts through numbers.
  const same = dtype === src.dtype;
  const from = same ? asBits(src.data) : src.data;
  const to = same ? asBits(out.data) : out.data;
  const convert = elementConverter(src.dtype, dtype);
  if (convert) forEachStrided(shape, [view], (i, o) => { to[i] = convert(from[o]!); });
  else forEachStrided(shape, [view], (i, o) => { to[i] = from[o]!; });
  return out;
}

/** Writes `v`, row-major, into the strided window `view` of `to` (a mutable array's block, where a trace stage stores). */
function scatter(v: Dense, into: TypedArray, view: ViewMap): void {
  // A mutable array's block and the value stored into it are of one dtype (the trace casts first).
  const same = v.data.constructor === into.constructor;
  const from = same ? asBits(v.data) : v.data;
  const to = same ? asBits(into) : into;
  forEachStrided(v.shape, [view], (i, o) => {
    to[o] = from[i]!;
  });
}

export { allocDense, forEachStrided, gather, scatter, asBits };
export type { Dense };
