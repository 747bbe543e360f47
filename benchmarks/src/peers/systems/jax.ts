// jax-js on its WebAssembly backend: jit-compiled (fused) functions, in
// float64 or float32, results read back with data(). jax-js takes ownership
// of its arguments (reference counts), hence the `.ref`s.
import os from 'node:os';
import { BS, CDF_C, CDF_K, WAVE_STEPS, waveInitial } from '../cases.js';
import type { CaseSpec } from '../cases.js';
import { packageVersion } from './system.js';
import type { Built, System } from './system.js';

type Jax = typeof import('@jax-js/jax');
type Arr = import('@jax-js/jax').Array;
let jax: Jax;

const chain = (a: Arr, b: Arr): Arr =>
  jax.numpy.sqrt(jax.numpy.abs(a.ref.mul(1.5).add(b.ref).sub(0.25).mul(a).add(2).mul(0.5).sub(b))).add(1) as Arr;

function jaxjs(dtype: 'float64' | 'float32'): System {
  return {
    label: `jax-js ${dtype}, jit`,
    dtype,
    async load() {
      // jax-js is written for browsers and Deno; Node 20 lacks two globals it touches.
      const g = globalThis as Record<string, unknown>;
      g['navigator'] ??= { hardwareConcurrency: os.availableParallelism() };
      g['Float16Array'] ??= class Float16Array {};
      jax = await import('@jax-js/jax');
      const devices = await jax.init();
      if (!devices.includes('wasm')) throw new Error(`no wasm device (devices: ${devices.join(', ')})`);
      jax.defaultDevice('wasm');
      return { version: packageVersion('@jax-js/jax'), note: 'wasm device' };
    },
    async build(c: CaseSpec, n: number): Promise<Built | string> {
      const np = jax.numpy;
      const dt = dtype === 'float64' ? np.float64 : np.float32;
      const arr = (x: Float64Array, shape?: number[]): Arr => {
        const a = np.array(dtype === 'float64' ? x : Float32Array.from(x), { dtype: dt });
        return (shape ? a.reshape(shape) : a) as Arr;
      };
      const read = async (r: Arr): Promise<number | ArrayLike<number>> => {
        const d = (await r.data()) as Float64Array;
        return r.shape.length === 0 ? d[0]! : d;
      };
      const cdf = (d: Arr): Arr => np.tanh(d.ref.add(d.ref.mul(d.ref).mul(d).mul(CDF_C)).mul(CDF_K)).add(1).mul(0.5) as Arr;
      if (c.id === 'wave') {
        const v0 = waveInitial(n);
        const half = v0.dt / 2;
        const cc = v0.dt / (v0.h * v0.h);
        const step = jax.jit((phi: Arr, p: Arr): Arr[] => {
          const f = phi.sub(p.ref.mul(half)) as Arr;
          const win = (di: number, dj: number): Arr => f.ref.slice([1 + di, n - 1 + di], [1 + dj, n - 1 + dj]) as Arr;
          const lap = win(1, 0).add(win(-1, 0)).add(win(0, 1)).add(win(0, -1)).sub(win(0, 0).mul(4)) as Arr;
          const q = p.sub(np.pad(lap.mul(cc), 1)) as Arr;
          return [f.sub(q.ref.mul(half)) as Arr, q];
        });
        const stepper = (): (() => Promise<number | ArrayLike<number>>) => {
          const v = waveInitial(n);
          let phi = arr(v.phi, [n, n]);
          let p = arr(v.p, [n, n]);
          return async () => {
            for (let s = 0; s < WAVE_STEPS; s++) [phi, p] = step(phi, p) as [Arr, Arr];
            return read(phi.ref);
          };
        };
        const live = stepper();
        return { run: live, result: () => stepper()() };
      }
      const shapes = c.id === 'matmul' ? [[n, n], [n, n]] : c.id === 'matvec' ? [[n, n], [n]] : [];
      const ins = c.inputs(n).map((x, i) => arr(x, shapes[i]));
      let f: (...xs: Arr[]) => Arr;
      switch (c.id) {
        case 'foo': f = (x) => np.sum(np.square(x.mul(Math.PI).div(180))) as Arr; break;
        case 'foo-folded': f = (x) => np.sum(np.square(x.mul(Math.PI / 180))) as Arr; break;
        case 'chain': case 'call-compiled': f = chain; break;
        case 'call': {
          // Not compiled: jax-js runs op by op, as JAX does outside jit.
          const run = async (): Promise<number | ArrayLike<number>> => read(chain(ins[0]!.ref, ins[1]!.ref));
          return { run, result: run };
        }
        case 'sincos': f = (a, b) => np.square(np.sin(a)).add(np.square(np.cos(b))) as Arr; break;
        case 'blackscholes': f = (S, X, T) => {
          const vSqrtT = np.sqrt(T.ref).mul(BS.v) as Arr;
          const d1 = np.log(S.ref.div(X.ref)).add(T.ref.mul(BS.r + (BS.v * BS.v) / 2)).div(vSqrtT.ref) as Arr;
          const d2 = d1.ref.sub(vSqrtT) as Arr;
          return S.mul(cdf(d1)).sub(X.mul(np.exp(T.mul(-BS.r))).mul(cdf(d2))) as Arr;
        }; break;
        case 'matmul': case 'matvec': f = (a, b) => np.matmul(a, b) as Arr; break;
        default: return `not written for ${c.id}`;
      }
      const jitted = jax.jit(f);
      const run = async (): Promise<number | ArrayLike<number>> => read(jitted(...ins.map((x) => x.ref)));
      return { run, result: run };
    },
  };
}

export { jaxjs };
