// scijs ndarray + ndarray-ops, as its users write it: each op a loop over
// views, results into arrays the caller allocates (here one fresh result
// per call, ops in place on it where they can be).
import { createRequire } from 'node:module';
import { BS, CDF_C, CDF_K, WAVE_STEPS, waveInitial } from '../cases.js';
import type { CaseSpec } from '../cases.js';
import { packageVersion } from './system.js';
import type { Built, System } from './system.js';

interface Nd {
  readonly data: Float64Array;
  lo(...i: number[]): Nd;
  hi(...i: number[]): Nd;
}
type Bin = (out: Nd, a: Nd, b: Nd) => void;
type BinS = (out: Nd, a: Nd, s: number) => void;
type Un = (out: Nd, a: Nd) => void;
type InS = (a: Nd, s: number) => void;
type In1 = (a: Nd) => void;
type In2 = (a: Nd, b: Nd) => void;
interface Ops {
  add: Bin; sub: Bin; mul: Bin; div: Bin;
  muls: BinS; adds: BinS; subs: BinS;
  addeq: In2; subeq: In2; muleq: In2; diveq: In2;
  mulseq: InS; addseq: InS; subseq: InS; divseq: InS;
  abseq: In1; sqrteq: In1; expeq: In1; logeq: In1;
  sin: Un; cos: Un; sqrt: Un; exp: Un; assign: Un;
  sum(a: Nd): number;
}

let ops: Ops;
let ndarray: (data: Float64Array, shape?: number[]) => Nd;

/** tanh in place through exp (ndarray-ops has no tanh): 1 - 2 / (exp(2y) + 1). */
function tanheq(t: Nd, one: Nd): void {
  ops.mulseq(t, 2);
  ops.expeq(t);
  ops.addseq(t, 1);
  ops.div(t, one, t);
  ops.mulseq(t, -2);
  ops.addseq(t, 1);
}

/** cdf(d) into t. */
function cdf(t: Nd, d: Nd, tmp: Nd, one: Nd): void {
  ops.mul(tmp, d, d);
  ops.muleq(tmp, d);
  ops.mulseq(tmp, CDF_C);
  ops.add(t, d, tmp);
  ops.mulseq(t, CDF_K);
  tanheq(t, one);
  ops.addseq(t, 1);
  ops.mulseq(t, 0.5);
}

function ndarrayOps(): System {
  return {
    label: 'ndarray + ndarray-ops',
    dtype: 'float64',
    async load() {
      const require = createRequire(import.meta.url);
      ops = require('ndarray-ops') as Ops;
      ndarray = require('ndarray') as typeof ndarray;
      return { version: packageVersion('ndarray-ops') };
    },
    async build(c: CaseSpec, n: number): Promise<Built | string> {
      const ins = c.inputs(n).map((x) => ndarray(x));
      const [a, b, t] = ins;
      const fresh = (): Nd => ndarray(new Float64Array(n));
      let run: () => number | Float64Array;
      switch (c.id) {
        case 'foo': case 'foo-folded': run = () => {
          const r = fresh();
          if (c.id === 'foo') {
            ops.muls(r, a!, Math.PI);
            ops.divseq(r, 180);
          } else {
            ops.muls(r, a!, Math.PI / 180);
          }
          ops.muleq(r, r);
          return ops.sum(r);
        }; break;
        case 'chain': case 'call': run = () => {
          const r = fresh();
          ops.muls(r, a!, 1.5);
          ops.addeq(r, b!);
          ops.subseq(r, 0.25);
          ops.muleq(r, a!);
          ops.addseq(r, 2);
          ops.mulseq(r, 0.5);
          ops.subeq(r, b!);
          ops.abseq(r);
          ops.sqrteq(r);
          ops.addseq(r, 1);
          return r.data;
        }; break;
        case 'sincos': run = () => {
          const r = fresh();
          const s = fresh();
          ops.sin(r, a!);
          ops.muleq(r, r);
          ops.cos(s, b!);
          ops.muleq(s, s);
          ops.addeq(r, s);
          return r.data;
        }; break;
        case 'blackscholes': {
          const one = ndarray(new Float64Array(n).fill(1));
          run = () => {
            const [S, X, T] = [a!, b!, t!];
            const vSqrtT = fresh();
            ops.sqrt(vSqrtT, T);
            ops.mulseq(vSqrtT, BS.v);
            const d1 = fresh();
            ops.div(d1, S, X);
            ops.logeq(d1);
            const tmp = fresh();
            ops.muls(tmp, T, BS.r + (BS.v * BS.v) / 2);
            ops.addeq(d1, tmp);
            ops.diveq(d1, vSqrtT);
            const d2 = fresh();
            ops.sub(d2, d1, vSqrtT);
            const n1 = fresh();
            cdf(n1, d1, tmp, one);
            const n2 = fresh();
            cdf(n2, d2, tmp, one);
            const r = fresh();
            ops.mul(r, S, n1);
            ops.muls(tmp, T, -BS.r);
            ops.expeq(tmp);
            ops.muleq(tmp, X);
            ops.muleq(tmp, n2);
            ops.subeq(r, tmp);
            return r.data;
          };
          break;
        }
        case 'wave': {
          const stepper = (v: ReturnType<typeof waveInitial>): (() => Float64Array) => {
            const phi = ndarray(v.phi, [n, n]);
            const p = ndarray(v.p, [n, n]);
            const tmp = ndarray(new Float64Array(n * n), [n, n]);
            const inner = (x: Nd, di: number, dj: number): Nd => x.lo(1 + di, 1 + dj).hi(n - 2, n - 2);
            const lap = inner(tmp, 0, 0);
            const four = ndarray(new Float64Array((n - 2) * (n - 2)), [n - 2, n - 2]);
            const half = v.dt / 2;
            const cc = v.dt / (v.h * v.h);
            return () => {
              for (let s = 0; s < WAVE_STEPS; s++) {
                ops.muls(tmp, p, half);
                ops.subeq(phi, tmp);
                ops.add(lap, inner(phi, 1, 0), inner(phi, -1, 0));
                ops.addeq(lap, inner(phi, 0, 1));
                ops.addeq(lap, inner(phi, 0, -1));
                ops.muls(four, inner(phi, 0, 0), 4);
                ops.subeq(lap, four);
                ops.mulseq(lap, cc);
                ops.subeq(inner(p, 0, 0), lap);
                ops.muls(tmp, p, half);
                ops.subeq(phi, tmp);
              }
              return phi.data;
            };
          };
          const live = stepper(waveInitial(n));
          return { run: live, result: () => stepper(waveInitial(n))() };
        }
        case 'matmul': case 'matvec': return 'has no matrix product (scijs keeps it in ndarray-gemm)';
        case 'call-compiled': return 'no compiled form: the call case is the same code';
        default: return `not written for ${c.id}`;
      }
      return { run, result: () => run() };
    },
  };
}

export { ndarrayOps };
