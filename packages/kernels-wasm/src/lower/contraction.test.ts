import { compileKernel } from './compile.js';
import type { ContractionSpec, KInstr, KernelSpec } from './kernel-spec.js';
import { instantiate, launch } from './launch.js';
import type { ContractionOperand } from './launch.js';
import { noHost, testHeap } from './test-heap.js';

type FT = 'float64' | 'float32' | 'int32' | 'uint32';

const CTORS = { float64: Float64Array, float32: Float32Array, int32: Int32Array, uint32: Uint32Array } as const;

/** A strided operand in plain JS: element (b, i, j) at off + b*batch + i*row + j*col. */
interface Operand { data: number[]; batch: number; row: number; col: number }

/** The reference: sums in k order from +0, rounded as the dtype rounds. */
function expected(t: FT, a: Operand, b: Operand, batches: number, P: number, K: number, Q: number): number[] {
  const r = t === 'float32' ? Math.fround : (x: number): number => x;
  // Integers wrap: the low 32 bits of each product and sum, as NumPy's int32/uint32 matmul.
  const wrap = t === 'int32' ? (x: number): number => x | 0 : (x: number): number => x >>> 0;
  const out: number[] = [];
  for (let n = 0; n < batches; n++) {
    for (let p = 0; p < P; p++) {
      for (let q = 0; q < Q; q++) {
        let acc = 0;
        for (let k = 0; k < K; k++) {
          const x = a.data[n * a.batch + p * a.row + k * a.col]!;
          const y = b.data[n * b.batch + k * b.row + q * b.col]!;
          acc = t === 'int32' || t === 'uint32' ? wrap(acc + Math.imul(x, y)) : r(acc + r(x * y));
        }
        out.push(acc);
      }
    }
  }
  return out;
}

const spec = (t: FT, vectorise: ContractionSpec['vectorise'], body: KInstr[] = [], extra: KernelSpec['arrays'] = []): KernelSpec => ({
  ndim: 1,
  arrays: [{ dtype: t, role: 'in', inner: 'contiguous' }, ...extra],
  body,
  slots: 0,
  contraction: { dtype: t, product: 0, vectorise },
});

/** Runs C = A @ B (and the body) in a fresh heap; returns C and the arrays after it. */
function contract(s: KernelSpec, a: Operand, b: Operand, sizes: { batches: number; P: number; K: number; Q: number }, rowsPerBlock?: number,
  extra: number[][] = []) {
  const t = s.contraction!.dtype;
  const Ctor = CTORS[t];
  const E = Ctor.BYTES_PER_ELEMENT;
  const heap = testHeap();
  const put = (v: number[]): number => {
    const p = heap.alloc(Math.max(1, v.length) * E);
    new Ctor(heap.memory.buffer, p, v.length).set(v);
    return p;
  };
  const total = sizes.batches * sizes.P * sizes.Q;
  const c = heap.alloc(Math.max(1, total) * E);
  const arrays = [c, ...extra.map((v) => (v.length === 0 ? heap.alloc(Math.max(1, total) * E) : put(v)))];
  const op = (o: Operand, ptr: number): ContractionOperand => ({ ptr, batch: o.batch, row: o.row, col: o.col });
  const compiled = compileKernel(s);
  const fn = instantiate(compiled, heap.memory, { hostFunction: noHost });
  launch(compiled, heap, fn, {
    shape: [total],
    arrays: arrays.map((ptr) => ({ ptr, strides: [1] })),
    contraction: { ...sizes, a: op(a, put(a.data)), b: op(b, put(b.data)), ...(rowsPerBlock ? { rowsPerBlock } : {}) },
  });
  return arrays.map((ptr) => Array.from(new Ctor(heap.memory.buffer, ptr, total)));
}

/** Deterministic values with a few special ones; float32 data is exactly representable; integers span the type (products wrap). */
function values(n: number, seed: number, t: FT, special = false): number[] {
  let x = seed;
  if (t === 'int32' || t === 'uint32') {
    const wrap = t === 'int32' ? (v: number): number => v | 0 : (v: number): number => v >>> 0;
    return Array.from({ length: n }, (_, i) => {
      x = (x * 1103515245 + 12345) % 2147483648;
      return wrap(i % 3 === 0 ? x * 2 + 1 : (x % 201) - 100);
    });
  }
  const specials = [NaN, Infinity, -Infinity, -0, 0, 5e-324, 1e308];
  return Array.from({ length: n }, (_, i) => {
    x = (x * 1103515245 + 12345) % 2147483648;
    if (special && i % 7 === 3) return t === 'float32' ? Math.fround(specials[x % specials.length]!) : specials[x % specials.length]!;
    const v = (x / 2147483648 - 0.5) * 8;
    return t === 'float32' ? Math.fround(v) : v;
  });
}

const rowMajor = (data: number[], rows: number, cols: number, batched = true): Operand => ({ data, batch: batched ? rows * cols : 0, row: cols, col: 1 });
const same = (got: number[], want: number[]): void => {
  expect(got.length).toBe(want.length);
  // Object.is tells -0 from 0 and takes NaN as equal to NaN.
  const bad = got.findIndex((g, i) => !Object.is(g, want[i]) && !(Number.isNaN(g) && Number.isNaN(want[i])));
  if (bad >= 0) throw new Error(`element ${bad}: got ${got[bad]}, want ${want[bad]}`);
};

describe('contraction kernels: C = A @ B, bit-exact against k-order sums', () => {
  const sizes = [0, 1, 2, 3, 4, 5, 7, 8, 9, 17];
  for (const t of ['float64', 'float32'] as const) {
    test.each(sizes.flatMap((P) => [0, 1, 3, 4, 9].flatMap((K) => [1, 2, 3, 4, 5, 8, 9, 13].map((Q) => [P, K, Q]))))(`${t} columns: %i x %i @ %i`, (P, K, Q) => {
      const a = rowMajor(values(P * K, P * 31 + K, t), P, K);
      const b = rowMajor(values(K * Q, Q * 17 + 3, t), K, Q);
      const [c] = contract(spec(t, 'columns'), a, b, { batches: 1, P, K, Q });
      same(c!, expected(t, a, b, 1, P, K, Q));
    });
    test.each(sizes.flatMap((P) => [0, 1, 2, 3, 4, 5, 8, 9, 33].flatMap((K) => [1, 2, 3].map((Q) => [P, K, Q]))))(`${t} rows: %i x %i @ %i`, (P, K, Q) => {
      const a = rowMajor(values(P * K, P * 13 + K, t), P, K);
      const b = rowMajor(values(K * Q, Q * 7 + 1, t), K, Q);
      const [c] = contract(spec(t, 'rows'), a, b, { batches: 1, P, K, Q });
      same(c!, expected(t, a, b, 1, P, K, Q));
    });

    test(`${t}: NaN, infinities, -0 and subnormals propagate as in the k-order sum`, () => {
      const [P, K, Q] = [19, 11, 10];
      const a = rowMajor(values(P * K, 5, t, true), P, K);
      const b = rowMajor(values(K * Q, 9, t, true), K, Q);
      same(contract(spec(t, 'columns'), a, b, { batches: 1, P, K, Q })[0]!, expected(t, a, b, 1, P, K, Q));
      const x = rowMajor(values(K, 9, t, true), K, 1);
      same(contract(spec(t, 'rows'), a, x, { batches: 1, P, K, Q: 1 })[0]!, expected(t, a, x, 1, P, K, 1));
    });

    test(`${t}: -0 products sum to +0 (the sum starts from +0), as the reference does`, () => {
      const a = rowMajor([-0, -0], 1, 2);
      const b = rowMajor([0, 0], 2, 1);
      for (const v of ['columns', 'rows'] as const) expect(Object.is(contract(spec(t, v), a, b, { batches: 1, P: 1, K: 2, Q: 1 })[0]![0], 0)).toBe(true);
    });

    test(`${t}: batches, a broadcast operand, and blocks that cut through batches`, () => {
      const [batches, P, K, Q] = [3, 5, 6, 7];
      const a = rowMajor(values(batches * P * K, 1, t), P, K);
      const b = rowMajor(values(K * Q, 2, t), K, Q, false);
      const want = expected(t, a, b, batches, P, K, Q);
      for (const rpb of [1, 2, 3, 4, 7, 16, undefined]) same(contract(spec(t, 'columns'), a, b, { batches, P, K, Q }, rpb)[0]!, want);
      const x = { data: values(batches * K, 3, t), batch: K, row: 1, col: 1 };
      const wantRows = expected(t, a, x, batches, P, K, 1);
      for (const rpb of [1, 3, 8, undefined]) same(contract(spec(t, 'rows'), a, x, { batches, P, K, Q: 1 }, rpb)[0]!, wantRows);
    });

    test(`${t} columns in panels (k past 128 steps, columns past 64): each sum still in k order`, () => {
      // Sizes on either side of the panels' edges (128 steps of k, 64 columns), with columns left over.
      for (const [P, K, Q] of [[5, 129, 65], [9, 256, 64], [3, 300, 131], [6, 128, 200], [4, 1, 70], [7, 0, 67]] as const) {
        const a = rowMajor(values(P * K, P + K, t, true), P, K);
        const b = rowMajor(values(K * Q, K + Q, t, true), K, Q);
        const want = expected(t, a, b, 1, P, K, Q);
        for (const rpb of [2, 5, undefined]) same(contract(spec(t, 'columns'), a, b, { batches: 1, P, K, Q }, rpb)[0]!, want);
      }
    });

    test(`${t}: strided operands (A transposed for columns, x strided for rows)`, () => {
      const [P, K, Q] = [9, 7, 6];
      const at = { data: values(K * P, 4, t), batch: 0, row: 1, col: P }; // A = (K x P)^T
      const b = rowMajor(values(K * Q, 6, t), K, Q);
      same(contract(spec(t, 'columns'), at, b, { batches: 1, P, K, Q })[0]!, expected(t, at, b, 1, P, K, Q));
      const a = { data: values(P * (K + 3), 8, t), batch: 0, row: K + 3, col: 1 }; // rows padded: a slice
      const x = { data: values(3 * K, 10, t), batch: 0, row: 3, col: 1 };
      same(contract(spec(t, 'rows'), a, x, { batches: 1, P, K, Q: 1 })[0]!, expected(t, a, x, 1, P, K, 1));
    });
  }

  for (const t of ['int32', 'uint32'] as const) {
    test.each([[1, 1, 1], [3, 5, 4], [4, 9, 8], [9, 33, 13], [17, 4, 9], [0, 3, 4], [5, 0, 5]])(`${t} columns and rows, wrapping: %i x %i @ %i`, (P, K, Q) => {
      const a = rowMajor(values(P * K, P * 31 + K, t), P, K);
      const b = rowMajor(values(K * Q, Q * 17 + 3, t), K, Q);
      same(contract(spec(t, 'columns'), a, b, { batches: 1, P, K, Q })[0]!, expected(t, a, b, 1, P, K, Q));
      const x = rowMajor(values(K, Q * 7 + 1, t), K, 1);
      same(contract(spec(t, 'rows'), a, x, { batches: 1, P, K, Q: 1 })[0]!, expected(t, a, x, 1, P, K, 1));
    });

    test(`${t}: batches, a broadcast operand, strided A, blocks that cut through batches`, () => {
      const [batches, P, K, Q] = [3, 5, 6, 7];
      const a = rowMajor(values(batches * P * K, 1, t), P, K);
      const b = rowMajor(values(K * Q, 2, t), K, Q, false);
      for (const rpb of [1, 3, 7, undefined]) same(contract(spec(t, 'columns'), a, b, { batches, P, K, Q }, rpb)[0]!, expected(t, a, b, batches, P, K, Q));
      const at = { data: values(K * P, 4, t), batch: 0, row: 1, col: P };
      same(contract(spec(t, 'columns'), at, b, { batches: 1, P, K, Q })[0]!, expected(t, at, b, 1, P, K, Q));
    });
  }

  test('the body runs over the product block by block: out = C * 2 + y', () => {
    const t = 'float64';
    const [P, K, Q] = [37, 5, 3];
    const body: KInstr[] = [
      { op: 'load', array: 0, type: t },
      { op: 'const', value: 2, type: t },
      { op: 'binary', fn: 'multiply', args: [0, 1], type: t },
      { op: 'load', array: 1, type: t },
      { op: 'binary', fn: 'add', args: [2, 3], type: t },
      { op: 'store', array: 2, arg: 4, type: t },
    ];
    const s = spec(t, 'columns', body, [{ dtype: t, role: 'in', inner: 'contiguous' }, { dtype: t, role: 'out', inner: 'contiguous' }]);
    const a = rowMajor(values(P * K, 11, t), P, K);
    const b = rowMajor(values(K * Q, 12, t), K, Q);
    const y = values(P * Q, 13, t);
    const c = expected(t, a, b, 1, P, K, Q);
    for (const rpb of [1, 4, 5, undefined]) {
      const [product, , out] = contract(s, a, b, { batches: 1, P, K, Q }, rpb, [y, []]);
      same(product!, c);
      same(out!, c.map((v, i) => v * 2 + y[i]!));
    }
  });

  test('launches that do not fit the spec are refused with the reason', () => {
    const heap = testHeap();
    const compiled = compileKernel(spec('float64', 'rows'));
    const fn = instantiate(compiled, heap.memory, { hostFunction: noHost });
    const op = { ptr: 4096, batch: 0, row: 4, col: 1 };
    const go = (c: object, shape = [4]): unknown => launch(compiled, heap, fn, { shape, arrays: [{ ptr: 8192, strides: [1] }], contraction: c as never });
    expect(() => launch(compiled, heap, fn, { shape: [4], arrays: [{ ptr: 8192, strides: [1] }] })).toThrow(/give launch.contraction/);
    expect(() => go({ batches: 1, P: 4, K: 4, Q: 1, a: { ...op, col: 2 }, b: op })).toThrow(/contiguous along k/);
    expect(() => go({ batches: 1, P: 3, K: 4, Q: 1, a: op, b: op })).toThrow(/has 1 x 3 x 1 elements/);
    expect(() => go({ batches: 1, P: 4, K: -1, Q: 1, a: op, b: op })).toThrow(/K must be a non-negative integer/);
    expect(() => compileKernel({ ...spec('float64', 'rows'), slots: 1, body: [{ op: 'load', array: 0, type: 'float64' }, { op: 'reduce', fn: 'sum', arg: 0, slot: 0, type: 'float64' }] }))
      .toThrow(/no reductions/);
  });
});
