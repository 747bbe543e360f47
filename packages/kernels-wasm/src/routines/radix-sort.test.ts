// The radix sort against a comparison sort written plainly: NumPy's order
// (ascending, NaN last, -0 equal to +0), stable, every element's bits kept;
// for each element kind, short and long lines (insertion, 8- and 11-bit
// digits), several lines at once, and the special values.
import fc from 'fast-check';
import { sortLines } from './radix-sort.js';
import type { SortKind } from './radix-sort.js';
import { testHeap } from '../lower/test-heap.js';

type Arr = Float64Array | Float32Array | BigInt64Array | BigUint64Array | Int32Array | Uint32Array | Int16Array | Uint16Array | Int8Array | Uint8Array;
const CTORS: Record<SortKind, new (b: ArrayBuffer | SharedArrayBuffer, o: number, n: number) => Arr> = {
  f64: Float64Array, f32: Float32Array, i64: BigInt64Array, u64: BigUint64Array, i32: Int32Array, u32: Uint32Array,
  i16: Int16Array, u16: Uint16Array, i8: Int8Array, u8: Uint8Array,
};
/** Same-width unsigned views, to compare bits (a NaN's payload, a zero's sign). */
const BITS: Record<number, new (b: ArrayBuffer | SharedArrayBuffer, o: number, n: number) => ArrayLike<number | bigint>> = {
  1: Uint8Array, 2: Uint16Array, 4: Uint32Array, 8: BigUint64Array,
};

/** NumPy's comparison: NaN after everything, -0 equal to +0. */
function compare(a: number | bigint, b: number | bigint): number {
  if (typeof a === 'bigint') return a < (b as bigint) ? -1 : a > (b as bigint) ? 1 : 0;
  const an = a !== a;
  const bn = (b as number) !== (b as number);
  if (an || bn) return an === bn ? 0 : an ? 1 : -1;
  return a < (b as number) ? -1 : a > (b as number) ? 1 : 0;
}

/** The stable order, by a comparison sort of positions (Array.prototype.sort is stable). */
function expectedOrder(line: Arr): number[] {
  return Array.from({ length: line.length }, (_, i) => i).sort((i, j) => compare(line[i]!, line[j]!));
}

function check(kind: SortKind, values: ArrayLike<number | bigint>, lines = 1): void {
  const heap = testHeap();
  const Ctor = CTORS[kind];
  const bytes = new Ctor(new ArrayBuffer(8), 0, 1).BYTES_PER_ELEMENT;
  const total = values.length;
  const n = total / lines;
  const src = heap.alloc(total * bytes);
  const x = new Ctor(heap.memory.buffer, src, total);
  for (let i = 0; i < total; i++) (x as unknown as (number | bigint)[])[i] = values[i]!;
  const dst = heap.alloc(total * bytes);
  const pos = heap.alloc(total * 4);
  sortLines(heap, kind, src, dst, n, lines, 'values');
  sortLines(heap, kind, src, pos, n, lines, 'positions');
  const xBits = new BITS[bytes]!(heap.memory.buffer, src, total);
  const outBits = new BITS[bytes]!(heap.memory.buffer, dst, total);
  const got = new Int32Array(heap.memory.buffer, pos, total);
  for (let l = 0; l < lines; l++) {
    const order = expectedOrder(x.subarray(l * n, (l + 1) * n) as Arr);
    const at = l * n;
    expect(Array.from(got.subarray(at, at + n))).toEqual(order);
    expect(Array.from({ length: n }, (_, i) => outBits[at + i])).toEqual(order.map((i) => xBits[at + i]));
  }
}

const SPECIAL_F = [0, -0, NaN, -NaN, Infinity, -Infinity, 5e-324, -5e-324, 1, -1, Number.MAX_VALUE, -Number.MAX_VALUE, 2.2250738585072014e-308];

describe('sortLines', () => {
  const lengths = [0, 1, 2, 3, 31, 32, 33, 100, 1000, (1 << 14) + 3];
  it.each(['f64', 'f32'] as const)('%s: special values among random ones, each length', (kind) => {
    for (const n of lengths) {
      const v = Array.from({ length: n }, (_, i) => (i % 3 === 0 ? SPECIAL_F[i % SPECIAL_F.length]! : Math.round((Math.random() - 0.5) * 64) / 8));
      check(kind, v);
    }
  });

  it('f64 and f32: NaN payloads and signalling NaNs keep their bits, in order', () => {
    const f64 = new Float64Array(40);
    const w = new BigUint64Array(f64.buffer);
    for (let i = 0; i < 40; i++) w[i] = i % 4 === 0 ? 0x7ff0000000000001n + BigInt(i) : i % 4 === 1 ? 0xfff8000000000000n + BigInt(i) : BigInt(i % 7) << 52n;
    check('f64', f64);
    const f32 = new Float32Array(40);
    const u = new Uint32Array(f32.buffer);
    for (let i = 0; i < 40; i++) u[i] = i % 4 === 0 ? 0x7f800001 + i : i % 4 === 1 ? (0xffc00000 + i) >>> 0 : i % 2 === 0 ? 0x80000000 : 0;
    check('f32', f32);
  });

  it.each(['i64', 'u64'] as const)('%s: extremes and random values', (kind) => {
    const ext = kind === 'i64' ? [-(2n ** 63n), 2n ** 63n - 1n, -1n, 0n, 1n] : [0n, 2n ** 64n - 1n, 2n ** 63n, 1n];
    for (const n of lengths) {
      const v = Array.from({ length: n }, (_, i) => (i % 5 === 0 ? ext[i % ext.length]! : BigInt.asIntN(64, BigInt(Math.floor(Math.random() * 2 ** 53)) * 4099n)));
      check(kind, kind === 'u64' ? v.map((b) => BigInt.asUintN(64, b)) : v);
    }
  });

  it.each(['i32', 'u32', 'i16', 'u16', 'i8', 'u8'] as const)('%s: every length, with repeats', (kind) => {
    for (const n of lengths) check(kind, Array.from({ length: n }, () => Math.floor((Math.random() - 0.5) * 2 ** 33)));
  });

  it('several lines at once, each sorted on its own', () => {
    check('f64', Array.from({ length: 5 * 200 }, () => Math.floor(Math.random() * 50) - 25), 5);
    check('i16', Array.from({ length: 7 * 40 }, () => Math.floor(Math.random() * 9)), 7);
    check('f32', Array.from({ length: 3 * 5 }, () => Math.random()), 3);
  });

  it('random lines of floats with repeats, zeros of both signs and NaNs', () => {
    const element = fc.oneof(fc.constantFrom(0, -0, NaN, Infinity, -Infinity), fc.integer({ min: -20, max: 20 }).map((i) => i / 4), fc.double());
    fc.assert(fc.property(fc.array(element, { maxLength: 300 }), fc.boolean(), (v, f32) => { check(f32 ? 'f32' : 'f64', v); }), { numRuns: 150 });
  });
});
