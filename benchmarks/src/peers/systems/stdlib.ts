// Eager @stdlib/ndarray, as a user without this package writes it: one new
// array per operation (ndarray/map), blas/ext/sum, and BLAS dgemm/dgemv.
import { BS, CDF_C, CDF_K, WAVE_STEPS } from '../cases.js';
import type { CaseSpec } from '../cases.js';
import { array, dgemm, dgemv, map, sum } from '../../stdlib.js';
import type { Nd } from '../../stdlib.js';
import { eagerWave } from '../../wave.js';
import { packageVersion } from './system.js';
import type { Built, System } from './system.js';

/** An elementwise op of two same-shaped arrays, eagerly (map over one, indexing the other). */
const zip = (a: Nd, b: Nd, f: (u: number, v: number) => number): Nd => {
  let i = 0;
  return map(a, (u) => f(u, b.data[i++]!));
};

function cdf(d: Nd): Nd {
  const cube = map(zip(zip(d, d, (u, v) => u * v), d, (u, v) => u * v), (u) => u * CDF_C);
  return map(map(map(map(zip(d, cube, (u, v) => u + v), (u) => u * CDF_K), Math.tanh), (u) => u + 1), (u) => u * 0.5);
}

function blackScholes(S: Nd, X: Nd, T: Nd): Nd {
  const vSqrtT = map(map(T, Math.sqrt), (u) => u * BS.v);
  const d1 = zip(zip(map(zip(S, X, (u, v) => u / v), Math.log), map(T, (u) => u * (BS.r + (BS.v * BS.v) / 2)), (u, v) => u + v), vSqrtT, (u, v) => u / v);
  const d2 = zip(d1, vSqrtT, (u, v) => u - v);
  const disc = zip(X, map(map(T, (u) => u * -BS.r), Math.exp), (u, v) => u * v);
  return zip(zip(S, cdf(d1), (u, v) => u * v), zip(disc, cdf(d2), (u, v) => u * v), (u, v) => u - v);
}

function stdlib(): System {
  return {
    label: 'eager @stdlib/ndarray',
    dtype: 'float64',
    load: async () => ({ version: packageVersion('@stdlib/ndarray') }),
    async build(c: CaseSpec, n: number): Promise<Built | string> {
      const ins = c.inputs(n);
      const nd = ins.map((x) => array(x, { shape: [x.length] }));
      const [a, b, t] = nd;
      const data = (r: Nd): Float64Array => r.data;
      let run: () => number | Float64Array;
      switch (c.id) {
        case 'foo': run = () => sum(map(map(map(a!, (v) => v * Math.PI), (v) => v / 180), (v) => v * v)).get(); break;
        case 'foo-folded': run = () => sum(map(map(a!, (v) => v * (Math.PI / 180)), (v) => v * v)).get(); break;
        case 'chain': case 'call': run = () => {
          let r = zip(map(a!, (v) => v * 1.5), b!, (u, v) => u + v);
          r = zip(map(r, (v) => v - 0.25), a!, (u, v) => u * v);
          r = zip(map(map(r, (v) => v + 2), (v) => v * 0.5), b!, (u, v) => u - v);
          return data(map(map(map(r, Math.abs), Math.sqrt), (v) => v + 1));
        }; break;
        case 'sincos': run = () => data(zip(map(map(a!, Math.sin), (v) => v * v), map(map(b!, Math.cos), (v) => v * v), (u, v) => u + v)); break;
        case 'blackscholes': run = () => data(blackScholes(a!, b!, t!)); break;
        case 'matmul': run = () => dgemm('row-major', 'no-transpose', 'no-transpose', n, n, n, 1, ins[0]!, n, ins[1]!, n, 0, new Float64Array(n * n), n); break;
        case 'matvec': run = () => dgemv('row-major', 'no-transpose', n, n, 1, ins[0]!, n, ins[1]!, 1, 0, new Float64Array(n), 1); break;
        case 'wave': {
          const w = eagerWave(n);
          const steps = (e: ReturnType<typeof eagerWave>): Float64Array => {
            for (let s = 0; s < WAVE_STEPS; s++) e.stepEager();
            return e.phi;
          };
          return { run: () => steps(w), result: () => steps(eagerWave(n)) };
        }
        case 'call-compiled': return 'no compiled form: the call case is the same code';
        default: return `not written for ${c.id}`;
      }
      return { run, result: () => run() };
    },
  };
}

export { stdlib };
