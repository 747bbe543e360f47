// Reductions over every axis combination of a 2x3x4 array against a
// brute-force oracle, plus NumPy's values, dtypes, empty and NaN cases and
// option validation.
import * as da from '../index.js';

type Nested = number | boolean | Nested[];
type Op = 'sum' | 'prod' | 'min' | 'max' | 'mean' | 'any' | 'all' | 'argmin' | 'argmax';

function toList(r: da.StdNdarray): Nested {
  const at = (idx: number[]): Nested => {
    if (idx.length === r.shape.length) return r.get(...idx) as number | boolean;
    return Array.from({ length: r.shape[idx.length]! }, (_, i) => at([...idx, i]));
  };
  return at([]);
}

function run(x: da.DeferredArray): da.StdNdarray {
  const r = x.executeSync() as da.StdNdarray;
  expect(r.shape).toEqual(x.shape);
  expect(r.dtype).toBe(x.dtype);
  return r;
}

const list = (x: da.DeferredArray): Nested => toList(run(x));

// Values -3..3 with repeats: products stay exact and argmin/argmax meet ties.
const DATA = Array.from({ length: 24 }, (_, i) => ((i * 5) % 7) - 3);
const SHAPE = [2, 3, 4];
const x234 = () => da.array(DATA).reshape(SHAPE);

const ORACLE: Record<Op, (v: number[]) => number | boolean> = {
  sum: (v) => v.reduce((s, a) => s + a, 0),
  prod: (v) => v.reduce((s, a) => s * a, 1),
  min: (v) => Math.min(...v),
  max: (v) => Math.max(...v),
  mean: (v) => v.reduce((s, a) => s + a, 0) / v.length,
  any: (v) => v.some((a) => a !== 0),
  all: (v) => v.every((a) => a !== 0),
  argmin: (v) => v.indexOf(Math.min(...v)),
  argmax: (v) => v.indexOf(Math.max(...v)),
};

/** NumPy's result of `op` over `axes` (sorted) of DATA in SHAPE, by brute force. */
function oracle(op: Op, axes: number[], keepdims: boolean): Nested {
  const strides = [12, 4, 1];
  const build = (dim: number, fixed: number[]): Nested => {
    if (dim === SHAPE.length) {
      const values: number[] = [];
      const walk = (d: number, idx: number[]): void => {
        if (d === SHAPE.length) {
          values.push(DATA[idx.reduce((s, v, k) => s + v * strides[k]!, 0)]!);
          return;
        }
        if (axes.includes(d)) for (let i = 0; i < SHAPE[d]!; i++) walk(d + 1, [...idx, i]);
        else walk(d + 1, [...idx, fixed[d]!]);
      };
      walk(0, []);
      return ORACLE[op](values);
    }
    if (axes.includes(dim)) {
      const inner = build(dim + 1, [...fixed, 0]);
      return keepdims ? [inner] : inner;
    }
    return Array.from({ length: SHAPE[dim]! }, (_, i) => build(dim + 1, [...fixed, i]));
  };
  return build(0, []);
}

const OPS: Op[] = ['sum', 'prod', 'min', 'max', 'mean', 'any', 'all', 'argmin', 'argmax'];
const AXIS_SETS = [[0], [1], [2], [0, 1], [0, 2], [1, 2], [0, 1, 2]];


// These tests pin the oracle's own reduction order (NumPy's pairwise sums),
// which the WebAssembly backend does not promise; its sums are checked
// against these within a tolerance in the differential tests.
beforeAll(() => { da.configure({ backend: 'reference' }); });
afterAll(() => { da.configure({ backend: process.env['DEFERRED_ARRAY_BACKEND'] === 'reference' ? 'reference' : 'wasm' }); });

describe('every reduction over every axis set of a 2x3x4 array', () => {
  for (const op of OPS) {
    test(op, () => {
      const x = x234();
      for (const axes of AXIS_SETS) {
        if ((op === 'argmin' || op === 'argmax') && axes.length !== 1) continue;
        for (const keepdims of [false, true]) {
          const axis = axes.length === 1 ? axes[0]! : axes;
          expect([op, axes, keepdims, list(x[op]({ axis, keepdims }))]).toEqual([op, axes, keepdims, oracle(op, axes, keepdims)]);
        }
      }
      // axis null and no options both mean every axis; argmin/argmax then index the flattened array.
      const all = oracle(op, [0, 1, 2], false);
      expect(list(x[op]())).toEqual(all);
      expect(list(x[op]({ axis: null }))).toEqual(all);
      expect(list(da[op](x, { axis: null, keepdims: true }))).toEqual([[[all]]]);
    });
  }
});

describe("NumPy's values", () => {
  test('sum, max, argmin and mean along single axes', () => {
    const x = x234();
    expect(list(x.sum({ axis: 0 }))).toEqual([[-2, 1, -3, 0], [3, -1, 2, -2], [1, -3, 0, 3]]);
    expect(list(x.max({ axis: 1 }))).toEqual([[3, 2, 0, 3], [1, -1, 3, 2]]);
    expect(list(x.argmin({ axis: 2 }))).toEqual([[0, 3, 2], [2, 1, 1]]);
    expect(list(x.mean({ axis: 2 }))).toEqual([[-0.75, 0, 0.75], [-0.25, 0.5, -0.5]]);
    expect(list(x.mean({ axis: [0, 2] }))).toEqual([-0.5, 0.25, 0.125]);
    expect(list(x.argmax({ axis: -1 }))).toEqual([[1, 0, 3], [3, 2, 2]]);
    expect(list(x.argmax())).toBe(4);
    expect(list(x.mean())).toBe(-1 / 24);
  });

  test('prod keeps the sign of zero as NumPy does', () => {
    const p = run(x234().prod({ axis: 1 }));
    expect(toList(p)).toEqual([[-18, 0, 0, 18], [-0, -6, -18, 0]]);
  });

  test('negative axes and axis lists in any order', () => {
    const x = x234();
    expect(list(x.sum({ axis: -1 }))).toEqual(list(x.sum({ axis: 2 })));
    expect(list(x.sum({ axis: [-1, 0] }))).toEqual(list(x.sum({ axis: [0, 2] })));
    expect(list(x.min({ axis: [2, -3], keepdims: true }))).toEqual(oracle('min', [0, 2], true));
    expect(list(x.argmin({ axis: -3 }))).toEqual(list(x.argmin({ axis: 0 })));
  });

  test('an empty axis list reduces nothing', () => {
    expect(list(da.arange(3).sum({ axis: [] }))).toEqual([0, 1, 2]);
    expect(list(da.arange(3).max({ axis: [] }))).toEqual([0, 1, 2]);
  });

  test('reductions of views read the view', () => {
    const x = x234();
    // x.sum(axis=2) is [[-3, 0, 3], [-1, 2, -2]]; reducing the transpose's first axis gives its transpose.
    expect(list(x.T.sum({ axis: 0 }))).toEqual([[-3, -1], [0, 2], [3, -2]]);
    expect(list(da.arange(10).get('::-1').argmax())).toBe(0);
    expect(list(da.arange(6).reshape([2, 3]).get(':, ::-1').argmin({ axis: 1 }))).toEqual([2, 2]);
  });

  test('pairwise summation matches NumPy bit for bit', () => {
    expect(list(da.full([1000], 0.1).sum())).toBe(100.00000000000001);
    const f = da.array(Float32Array.from({ length: 1000 }, (_, i) => (i * 0.1) % 1.7));
    expect(list(f.sum())).toBe(804.7000122070312);
    expect(list(f.mean())).toBe(0.8047000169754028);
  });

  test('float32 sums over any axes add in the order NumPy does, bit for bit', () => {
    // NumPy pairwise-sums runs of the innermost reduced block and adds those
    // (or single elements, when the innermost axis is kept) into the result.
    const f = (shape: number[]) => da.array(
      Float32Array.from({ length: shape.reduce((p, d) => p * d, 1) }, (_, i) => (i * 0.37) % 1.3),
    ).reshape(shape);
    const x = f([3, 4, 12]);
    expect(list(x.sum({ axis: [0, 2] }))).toEqual([23.619998931884766, 23.559999465942383, 23.5, 23.439998626708984]);
    expect(list(x.mean({ axis: [0, 2] }))).toEqual([0.6561110615730286, 0.6544444561004639, 0.6527777910232544, 0.6511110663414001]);
    expect((list(x.sum({ axis: [0, 1] })) as number[]).slice(0, 6)).toEqual([
      7.039999961853027, 7.580000400543213, 8.119999885559082, 7.3600006103515625, 7.900000095367432, 8.4399995803833,
    ]);
    expect(list(x.sum({ axis: [1, 2] }))).toEqual([32.55999755859375, 30.939998626708984, 30.619998931884766]);
    expect(list(f([12, 3]).sum({ axis: 0 }))).toEqual([8.25999927520752, 8.800000190734863, 8.039999961853027]);
    expect(list(f([12, 3]).mean({ axis: 0 }))).toEqual([0.68833327293396, 0.7333333492279053, 0.6700000166893005]);
    expect(list(f([40, 3]).sum({ axis: 0 }))).toEqual([25.999998092651367, 26.5, 25.69999885559082]);
    // A kept size-1 axis does not split the reduced block around it.
    expect(list(f([6, 1, 20]).sum({ axis: [0, 2] }))).toEqual([78.20000457763672]);
    expect(list(f([40, 1, 3]).sum({ axis: 0 }))).toEqual([[25.999998092651367, 26.5, 25.69999885559082]]);
  });

  test('integer products have no negative zero', () => {
    const p = da.array([[0, -1], [-3, 0]], { dtype: 'int32' }).prod({ axis: 1 });
    expect(list(p)).toEqual([0, 0]);
    expect(Object.is((list(p) as number[])[0], -0)).toBe(false);
    expect(Object.is(list(da.array([-2, 0, 5], { dtype: 'int32' }).prod()), 0)).toBe(true);
    expect(Object.is(list(da.array([-2, 0]).prod()), -0)).toBe(true);
  });

  test('0-d arrays reduce to themselves', () => {
    expect(list(da.array(5).sum())).toBe(5);
    expect(list(da.array(5).max())).toBe(5);
    expect(list(da.array(5).argmax())).toBe(0);
    expect(list(da.array(0).any())).toBe(false);
    expect(() => da.array(5).sum({ axis: 0 })).toThrow(da.ShapeError);
  });
});

describe('empty arrays', () => {
  test('reductions with an identity give it', () => {
    const e = da.zeros([0]);
    expect(list(e.sum())).toBe(0);
    expect(list(e.prod())).toBe(1);
    expect(list(e.mean())).toBeNaN();
    expect(list(e.any())).toBe(false);
    expect(list(e.all())).toBe(true);
    const e2 = da.zeros([2, 0]);
    expect(list(e2.sum({ axis: 1 }))).toEqual([0, 0]);
    expect(list(e2.prod({ axis: 1, keepdims: true }))).toEqual([[1], [1]]);
    expect(list(e2.all({ axis: -1 }))).toEqual([true, true]);
    expect(list(e2.sum({ axis: 0 }))).toEqual([]);
    expect(list(e2.max({ axis: 0 }))).toEqual([]);
    expect(list(e2.argmax({ axis: 0 }))).toEqual([]);
  });

  test('min, max, argmin and argmax over an empty axis fail when called, not at execute', () => {
    const e = da.zeros([2, 0]);
    for (const op of ['min', 'max', 'argmin', 'argmax'] as const) {
      expect(() => e[op]()).toThrow(da.ShapeError);
      expect(() => e[op]({ axis: 1 })).toThrow(da.ShapeError);
      expect(() => da[op](da.zeros([0]))).toThrow(/reduces an empty axis/);
    }
    expect(() => e.max({ axis: [0, 1] })).toThrow(/shape \(2, 0\) over axis \[0, 1\]/);
    expect(() => e.min({ axis: null })).toThrow(/over axis null/);
  });
});

describe('NaN', () => {
  const v = () => da.array([1, NaN, 3, NaN, -1]);

  test('max and min propagate NaN', () => {
    expect(list(v().max())).toBeNaN();
    expect(list(v().min())).toBeNaN();
    expect(list(da.array([[1, 2], [NaN, 0]]).max({ axis: 1 }))).toEqual([2, NaN]);
    expect(list(da.array([[1, 2], [NaN, 0]]).min({ axis: 0 }))).toEqual([NaN, 0]);
    expect(list(da.array([NaN, 1], { dtype: 'float32' }).max())).toBeNaN();
  });

  test('argmax and argmin return the first NaN', () => {
    expect(list(v().argmax())).toBe(1);
    expect(list(v().argmin())).toBe(1);
    expect(list(da.array([NaN, 5]).argmax())).toBe(0);
    expect(list(da.array([[0, NaN, NaN], [7, 8, 9]]).argmax({ axis: 1 }))).toEqual([1, 2]);
  });

  test('sum and mean propagate NaN; any and all count NaN as true', () => {
    expect(list(v().sum())).toBeNaN();
    expect(list(v().mean())).toBeNaN();
    expect(list(da.array([0, NaN]).any())).toBe(true);
    expect(list(da.array([NaN, NaN]).all())).toBe(true);
  });
});

describe('result dtypes', () => {
  const of = (dtype: da.DType) => da.array([1, 0, 1], { dtype });

  test('sum, prod and mean: integers and bool give float64, floats keep theirs', () => {
    for (const op of ['sum', 'prod', 'mean'] as const) {
      expect([op, of('int32')[op]().dtype]).toEqual([op, 'float64']);
      expect([op, of('uint8')[op]().dtype]).toEqual([op, 'float64']);
      expect([op, of('bool')[op]().dtype]).toEqual([op, 'float64']);
      expect([op, of('float32')[op]().dtype]).toEqual([op, 'float32']);
      expect([op, of('float64')[op]().dtype]).toEqual([op, 'float64']);
    }
    expect(list(of('bool').sum())).toBe(2);
    expect(list(of('bool').mean())).toBe(2 / 3);
    // Integer sums are carried in float64, so they do not wrap.
    expect(list(da.array([2 ** 31 - 1, 2 ** 31 - 1], { dtype: 'int32' }).sum())).toBe(2 ** 32 - 2);
    expect(list(da.array([200, 100], { dtype: 'uint8' }).sum())).toBe(300);
    expect(list(da.array([16, 16], { dtype: 'uint8' }).prod())).toBe(256);
  });

  test('min and max keep the dtype; any and all give bool; argmin and argmax int32', () => {
    for (const d of ['float64', 'float32', 'int32', 'uint8', 'bool'] as const) {
      expect([d, of(d).min().dtype, of(d).max({ axis: 0 }).dtype]).toEqual([d, d, d]);
      expect([d, of(d).any().dtype, of(d).all().dtype]).toEqual([d, 'bool', 'bool']);
      expect([d, of(d).argmin().dtype, of(d).argmax().dtype]).toEqual([d, 'int32', 'int32']);
    }
    expect(list(of('bool').max())).toBe(true);
    expect(list(of('bool').min())).toBe(false);
    expect(list(of('bool').argmin())).toBe(1);
    expect(list(da.array([3, 250, 7], { dtype: 'uint8' }).max())).toBe(250);
    expect(list(da.array([-5, 2], { dtype: 'int32' }).min())).toBe(-5);
  });

  test('float32 sums round in float32', () => {
    const f = da.arange(10, { dtype: 'float32' }).div(3);
    expect(f.dtype).toBe('float32');
    expect(list(f.sum())).toBe(15);
    expect(list(f.mean())).toBe(1.5);
    expect(list(f.prod())).toBe(0);
  });
});

describe('options validation', () => {
  const x = () => da.zeros([2, 3]);

  test('unknown options and bad option types are TypeErrors naming the option', () => {
    expect(() => x().sum({ axes: 0 } as da.ReduceOptions)).toThrow(TypeError);
    expect(() => x().sum({ axes: 0 } as da.ReduceOptions)).toThrow(/unknown option 'axes'/);
    expect(() => x().mean({ keepdims: 1 } as unknown as da.ReduceOptions)).toThrow(TypeError);
    expect(() => x().mean({ keepdims: 1 } as unknown as da.ReduceOptions)).toThrow(/keepdims must be a boolean/);
    expect(() => x().sum(3 as unknown as da.ReduceOptions)).toThrow(TypeError);
    expect(() => x().sum(null as unknown as da.ReduceOptions)).toThrow(TypeError);
    expect(() => x().sum({ axis: 0.5 })).toThrow(TypeError);
    expect(() => x().sum({ axis: '0' } as unknown as da.ReduceOptions)).toThrow(TypeError);
  });

  test('argmin and argmax take one axis, not a list', () => {
    expect(() => x().argmax({ axis: [0] })).toThrow(TypeError);
    expect(() => x().argmin({ axis: [0, 1] })).toThrow(/single integer/);
  });

  test('out-of-range and repeated axes are ShapeErrors', () => {
    expect(() => x().sum({ axis: 2 })).toThrow(da.ShapeError);
    expect(() => x().sum({ axis: -3 })).toThrow(da.ShapeError);
    expect(() => x().sum({ axis: 2 })).toThrow(/axis 2 is out of bounds for an array of dimension 2/);
    expect(() => x().max({ axis: [0, 5] })).toThrow(da.ShapeError);
    expect(() => x().argmax({ axis: 2 })).toThrow(da.ShapeError);
    expect(() => x().all({ axis: [1, -1] })).toThrow(/repeats/);
  });
});
