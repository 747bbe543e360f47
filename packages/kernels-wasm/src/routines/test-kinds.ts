// The sorting routines' element kinds as their tests view them: bytes per
// element, a view of their bits (compared bit for bit), a view of their
// values (written from JS numbers or bigints), and every kind.
import type { SortKind } from './radix-keys.js';

type View<T> = new (b: ArrayBufferLike, o: number, n: number) => T;

const BYTES: Record<SortKind, 1 | 2 | 4 | 8> = { f64: 8, f32: 4, i64: 8, u64: 8, i32: 4, u32: 4, i16: 2, u16: 2, i8: 1, u8: 1 };
const BITS: Record<number, View<ArrayLike<number | bigint>>> = {
  1: Uint8Array, 2: Uint16Array, 4: Uint32Array, 8: BigUint64Array,
};
const VALUES: Record<SortKind, View<{ [i: number]: number | bigint }>> = {
  f64: Float64Array, f32: Float32Array, i64: BigInt64Array, u64: BigUint64Array, i32: Int32Array, u32: Uint32Array,
  i16: Int16Array, u16: Uint16Array, i8: Int8Array, u8: Uint8Array,
};
const KINDS: readonly SortKind[] = ['f64', 'f32', 'i64', 'u64', 'i32', 'u32', 'i16', 'u16', 'i8', 'u8'];

export { BYTES, BITS, VALUES, KINDS };
