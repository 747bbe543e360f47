// The loop a user writes by hand instead: fused, one pass, into a fresh
// array per call or into one it owns and reuses.
import { chainJs } from '../../data.js';
import { BS, CDF_C, CDF_K, WAVE_STEPS, waveInitial, waveStepLoop } from '../cases.js';
import type { CaseSpec } from '../cases.js';
import type { Built, System } from './system.js';

const RAD = Math.PI / 180;

const cdf = (d: number): number => (Math.tanh((d + d * d * d * CDF_C) * CDF_K) + 1) * 0.5;

function blackScholes(S: number, X: number, T: number): number {
  const vSqrtT = Math.sqrt(T) * BS.v;
  const d1 = (Math.log(S / X) + T * (BS.r + (BS.v * BS.v) / 2)) / vSqrtT;
  const d2 = d1 - vSqrtT;
  return S * cdf(d1) - X * Math.exp(T * -BS.r) * cdf(d2);
}

function matmul(a: Float64Array, b: Float64Array, n: number, c: Float64Array): Float64Array {
  c.fill(0);
  for (let i = 0; i < n; i++) {
    for (let kk = 0; kk < n; kk++) {
      const aik = a[i * n + kk]!;
      for (let j = 0; j < n; j++) c[i * n + j]! += aik * b[kk * n + j]!;
    }
  }
  return c;
}

function matvec(a: Float64Array, x: Float64Array, n: number, y: Float64Array): Float64Array {
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let kk = 0; kk < n; kk++) s += a[i * n + kk]! * x[kk]!;
    y[i] = s;
  }
  return y;
}

function js(owned: boolean): System {
  return {
    label: owned ? 'JS loop, into an array it owns' : 'JS loop, into a fresh array',
    dtype: 'float64',
    load: async () => ({ version: process.versions.node, note: 'Node' }),
    async build(c: CaseSpec, n: number): Promise<Built | string> {
      const [x, y, z] = c.inputs(n);
      if (c.id === 'foo' || c.id === 'foo-folded') {
        if (owned) return 'a scalar result: no output array to own';
        const folded = c.id === 'foo-folded';
        const run = (): number => {
          let s = 0;
          for (let i = 0; i < n; i++) {
            const r = folded ? x![i]! * RAD : (x![i]! * Math.PI) / 180;
            s += r * r;
          }
          return s;
        };
        return { run, result: run };
      }
      if (c.id === 'wave') {
        if (!owned) return 'updates its arrays in place: see the owned loop';
        const v = waveInitial(n);
        const steps = (s: ReturnType<typeof waveInitial>): Float64Array => {
          for (let t = 0; t < WAVE_STEPS; t++) waveStepLoop(s.phi, s.p, n, s.h, s.dt);
          return s.phi;
        };
        return { run: () => steps(v), result: () => steps(waveInitial(n)) };
      }
      if (c.id === 'call-compiled') return 'no compiled form: the call case is the same code';
      const size = c.id === 'matmul' ? n * n : n;
      const mine = new Float64Array(size);
      const out = (): Float64Array => (owned ? mine : new Float64Array(size));
      let run: () => Float64Array;
      switch (c.id) {
        case 'chain': case 'call': run = () => {
          const o = out();
          for (let i = 0; i < n; i++) o[i] = chainJs(x![i]!, y![i]!);
          return o;
        }; break;
        case 'sincos': run = () => {
          const o = out();
          for (let i = 0; i < n; i++) {
            const s = Math.sin(x![i]!);
            const co = Math.cos(y![i]!);
            o[i] = s * s + co * co;
          }
          return o;
        }; break;
        case 'blackscholes': run = () => {
          const o = out();
          for (let i = 0; i < n; i++) o[i] = blackScholes(x![i]!, y![i]!, z![i]!);
          return o;
        }; break;
        case 'matmul': run = () => matmul(x!, y!, n, out()); break;
        case 'matvec': run = () => matvec(x!, y!, n, out()); break;
        default: return `not written for ${c.id}`;
      }
      let k = 0;
      return { run: () => run()[(k = (k + 7919) % size)], result: () => run().slice() };
    },
  };
}

export { js };
