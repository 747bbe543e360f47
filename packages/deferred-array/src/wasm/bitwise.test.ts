// The bitwise ops in kernels: the scalar loop's shift guards (WebAssembly
// shifts by the count modulo 32, NumPy by the count read unsigned), the
// vector loop's masks and constant shifts, each against the reference.
import * as da from '../index.js';

const initial = da.configure().backend;
beforeAll(() => { da.configure({ backend: 'wasm' }); });
afterAll(() => { da.configure({ backend: initial }); });

const values = (x: da.StdNdarray): number[] =>
  Array.from({ length: x.length }, (_, i) => Number(x.iget(i)));

/** Executes `make`'s arrays on both backends and returns [wasm, reference] values. */
function both(make: () => da.DeferredArray[]): [number[][], number[][]] {
  const got = (da.executeSync(make()) as da.StdNdarray[]).map(values);
  da.configure({ backend: 'reference' });
  try {
    return [got, (da.executeSync(make()) as da.StdNdarray[]).map(values)];
  } finally {
    da.configure({ backend: 'wasm' });
  }
}

const INT32 = [0, 1, -1, 2, -7, 100, 2147483647, -2147483648, 65536, 46341, 255, -256];
const COUNTS = [0, 1, 7, 8, 9, 30, 31, 32, 33, 63, 64, 100, -1, -31, -32, -2147483648];
const n = 1001;
const ints = (): da.DeferredArray => da.wrap(Int32Array.from({ length: n }, (_, i) => INT32[i % INT32.length]!));
const counts = (): da.DeferredArray => da.wrap(Int32Array.from({ length: n }, (_, i) => COUNTS[(i * 5) % COUNTS.length]!));
const bytes = (): da.DeferredArray => da.wrap(Uint8Array.from({ length: n }, (_, i) => (i * 37) % 256));

describe('bitwise ops in WebAssembly kernels', () => {
  test('shifts by counts past the width or negative give 0 (or -1 for a negative value shifted right), as NumPy', () => {
    const y = da.wrap(Int32Array.from([1, -1, 5, -8, 1, -5]));
    const c = da.wrap(Int32Array.from([32, 32, 33, 40, -1, -1]));
    const [[l, r]] = both(() => [y.leftShift(c), y.rightShift(c)]);
    expect(l).toEqual([0, 0, 0, 0, 0, 0]);
    expect(r).toEqual([0, -1, 0, -1, 0, -1]);
    const u = da.wrap(Uint8Array.from([1, 255, 128, 3]));
    const uc = da.wrap(Uint8Array.from([7, 1, 8, 200]));
    const [[ul, ur]] = both(() => [u.leftShift(uc), u.rightShift(uc)]);
    expect(ul).toEqual([128, 254, 0, 0]);
    expect(ur).toEqual([0, 127, 0, 0]);
  });

  test('int32 and uint8 arrays of counts, every op, fused in chains: bit for bit the reference', () => {
    const make = (): da.DeferredArray[] => {
      const x = ints();
      const k = counts();
      const b = bytes();
      return [
        x.leftShift(k), x.rightShift(k), x.bitwiseAnd(k), x.bitwiseOr(k), x.bitwiseXor(k), x.invert(),
        b.leftShift(b.bitwiseAnd(15)), b.rightShift(b.bitwiseAnd(15)), b.invert(), b.bitwiseXor(b.rightShift(1)),
        x.add(1).leftShift(3).bitwiseXor(x).rightShift(2).invert().sum(),
        da.bitwiseNot(b), x.bitwiseAnd(b),
      ];
    };
    const [got, want] = both(make);
    expect(got).toEqual(want);
  });

  test('a count the same in every lane shifts int32 lanes in the vector loop; a count per element takes the scalar loop', () => {
    const x = ints();
    const vector = x.leftShift(3).bitwiseOr(x.rightShift(29)).bitwiseXor(x.invert());
    const text = vector.explain({ kernels: true });
    expect(text).toContain('vectorised as i32x4');
    expect(text).toContain('i32x4.shl');
    expect(text).toContain('i32x4.shr_s');
    expect(text).toContain('v128.xor');
    expect(x.leftShift(32).explain({ kernels: true })).toContain('vectorised as i32x4');
    expect(x.leftShift(counts()).explain({ kernels: true })).toContain('scalar loop');
    // Counts broadcast along rows: one per row, the same across each row's lanes.
    const rows = da.wrap(Int32Array.from([0, 5, 31, 32, 33, -1, 64])).reshape([7, 1]);
    const grid = (): da.DeferredArray => ints().get('0:994').reshape([7, 142]);
    expect(grid().rightShift(rows).explain({ kernels: true })).toContain('vectorised as i32x4');
    const [got, want] = both(() => [
      ints().leftShift(3).bitwiseOr(ints().rightShift(29)).bitwiseXor(ints().invert()),
      ints().leftShift(32), ints().rightShift(33), ints().leftShift(31), ints().rightShift(-1),
      grid().rightShift(rows), grid().leftShift(rows),
    ]);
    expect(got).toEqual(want);
    expect(got[1]).toEqual(new Array(n).fill(0));
    expect(got[2]).toEqual(values(ints().lt(0).astype('int32').negative().executeSync() as da.StdNdarray));
    expect(got[4]).toEqual(got[2]);
  });

  test('masks combined with & | ^ ~ stay in float lanes: (x > 0) & ~(y < 1) is one vector kernel', () => {
    const x = da.wrap(Float64Array.from({ length: n }, (_, i) => Math.sin(i)));
    const y = da.wrap(Float64Array.from({ length: n }, (_, i) => Math.cos(i) * 2));
    const make = (): da.DeferredArray[] => [
      x.gt(0).bitwiseAnd(y.lt(1).invert()),
      x.gt(0).bitwiseOr(y.gt(1)).bitwiseXor(x.lt(-0.5)),
      da.where(x.gt(0).bitwiseAnd(y.gt(0)), x, y),
      da.countNonzero(x.gt(0).bitwiseAnd(y.gt(0))),
    ];
    const text = make()[0]!.explain({ kernels: true });
    expect(text).toContain('vectorised as f64x2');
    expect(text).toContain('v128.and');
    const [got, want] = both(make);
    expect(got).toEqual(want);
    const ref = Array.from({ length: n }, (_, i) => Number(Math.sin(i) > 0 && !(Math.cos(i) * 2 < 1)));
    expect(got[0]).toEqual(ref);
  });

  test('floats are refused when the graph is built, naming the dtypes and the way out', () => {
    const x = da.wrap(Float64Array.from([1, 2]));
    expect(() => x.bitwiseAnd(1)).toThrow(da.DTypeError);
    expect(() => x.invert()).toThrow(/integer and bool operands only.*float64.*astype\('int32'\)/);
    expect(() => ints().leftShift(1.5)).toThrow(da.DTypeError);
    expect(() => ints().bitwiseAnd(2 ** 40)).toThrow(RangeError);
    // bool keeps bool for and/or/xor/invert, and shifts compute in int8, as NumPy's do.
    const t = da.array([true, false], { dtype: 'bool' });
    expect(t.bitwiseXor(true).dtype).toBe('bool');
    expect(t.invert().dtype).toBe('bool');
    expect(t.leftShift(t).dtype).toBe('int8');
    expect(values(t.leftShift(3).executeSync() as da.StdNdarray)).toEqual([8, 0]);
  });
});
