import * as da from '../index.js';

const initial = da.configure().backend;
afterAll(() => { da.configure({ backend: initial }); });

type Build = () => da.DeferredArray | da.DeferredArray[];

function plain(x: unknown): unknown {
  if (x && typeof x === 'object' && 'shape' in (x as object) && 'data' in (x as object)) {
    const a = x as da.StdNdarray;
    return { dtype: a.dtype, shape: [...a.shape], data: Array.from(a.data as ArrayLike<number>, (v) => (Object.is(v, -0) ? '-0' : Number.isNaN(v) ? 'NaN' : v)) };
  }
  if (Array.isArray(x)) return x.map(plain);
  if (x && typeof x === 'object') return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, plain(v)]));
  return x;
}

function run(backend: 'wasm' | 'reference', build: Build): unknown {
  da.configure({ backend });
  const g = build();
  return plain(Array.isArray(g) ? da.executeSync(g) : g.executeSync());
}

/** The wasm backend gives exactly what the reference gives. */
function same(build: Build): void {
  const want = run('reference', build);
  const got = run('wasm', build);
  expect(got).toEqual(want);
}

const f64 = (xs: number[]) => da.wrap(Float64Array.from(xs));

describe('wasm backend review', () => {
  test('an elementwise op reading a reduction of its own group (y - sum(y))', () => {
    same(() => { const y = f64([1, 2, 3, 4]).mul(2); return y.sub(y.sum()); });
  });

  test('y / max(y) keepdims over rows', () => {
    same(() => { const y = f64([1, 2, 3, 4, 5, 6]).reshape([2, 3]).add(1); return y.div(y.max({ axis: 1, keepdims: true })); });
  });

  test('fusion groups whose dependencies change after another group recorded them do not form a cycle', () => {
    same(() => {
      const s1 = f64([1, 2, 3, 4]).reshape([2, 2]);
      const s2 = f64([5, 6, 7, 8]).reshape([2, 2]);
      const a = s1.add(1);          // group H
      const c = a.T.mul(2);         // group K, needs H
      const d = s2.add(1);          // group G
      const e = a.add(d.T);         // joins H: H needs G
      const f = d.add(c.T);         // joins G: G needs K -> cycle
      return [c, e, f];
    });
  });
});
