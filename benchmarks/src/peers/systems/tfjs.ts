// TensorFlow.js on its WebAssembly backend (XNNPACK), float32 only: an op
// per kernel, results read back with data(), the way its users read them.
import os from 'node:os';
import { BS, CDF_C, CDF_K, WAVE_STEPS, waveInitial } from '../cases.js';
import type { CaseSpec } from '../cases.js';
import { packageVersion } from './system.js';
import type { Built, System } from './system.js';

type TF = typeof import('@tensorflow/tfjs-core');
type Tensor = import('@tensorflow/tfjs-core').Tensor;
let tf: TF;

const cdf = (d: Tensor): Tensor => tf.mul(tf.add(tf.tanh(tf.mul(tf.add(d, tf.mul(tf.mul(tf.mul(d, d), d), CDF_C)), CDF_K)), 1), 0.5);

function blackScholes(S: Tensor, X: Tensor, T: Tensor): Tensor {
  const vSqrtT = tf.mul(tf.sqrt(T), BS.v);
  const d1 = tf.div(tf.add(tf.log(tf.div(S, X)), tf.mul(T, BS.r + (BS.v * BS.v) / 2)), vSqrtT);
  const d2 = tf.sub(d1, vSqrtT);
  return tf.sub(tf.mul(S, cdf(d1)), tf.mul(tf.mul(X, tf.exp(tf.mul(T, -BS.r))), cdf(d2)));
}

const chain = (a: Tensor, b: Tensor): Tensor =>
  tf.add(tf.sqrt(tf.abs(tf.sub(tf.mul(tf.add(tf.mul(tf.sub(tf.add(tf.mul(a, 1.5), b), 0.25), a), 2), 0.5), b))), 1);

function tfjs(): System {
  let threads = 1;
  return {
    label: 'TensorFlow.js, wasm backend',
    dtype: 'float32',
    async load() {
      tf = await import('@tensorflow/tfjs-core');
      const wasm = await import('@tensorflow/tfjs-backend-wasm');
      wasm.setThreadsCount(os.availableParallelism());
      if (!(await tf.setBackend('wasm'))) throw new Error('the wasm backend did not initialise');
      threads = wasm.getThreadsCount();
      const version = packageVersion('@tensorflow/tfjs-backend-wasm');
      return { version, note: `${threads} thread(s)${threads === 1 ? ' (its threaded build needs Web Workers, absent in Node)' : ''}` };
    },
    async build(c: CaseSpec, n: number): Promise<Built | string> {
      const ins = c.inputs(n).map((x) => Float32Array.from(x));
      const read = async (r: Tensor): Promise<Float32Array | number> => {
        const d = (await r.data()) as Float32Array;
        r.dispose();
        return r.rank === 0 ? d[0]! : d;
      };
      if (c.id === 'wave') {
        const stepper = (): (() => Promise<Float32Array>) => {
          const v = waveInitial(n);
          let phi: Tensor = tf.tensor2d(Float32Array.from(v.phi), [n, n]);
          let p: Tensor = tf.tensor2d(Float32Array.from(v.p), [n, n]);
          const half = v.dt / 2;
          const cc = v.dt / (v.h * v.h);
          return async () => {
            for (let s = 0; s < WAVE_STEPS; s++) {
              const [phi2, p2] = tf.tidy(() => {
                const f = tf.sub(phi, tf.mul(p, half));
                const win = (di: number, dj: number): Tensor => tf.slice(f, [1 + di, 1 + dj], [n - 2, n - 2]);
                const lap = tf.sub(tf.add(tf.add(tf.add(win(1, 0), win(-1, 0)), win(0, 1)), win(0, -1)), tf.mul(win(0, 0), 4));
                const q = tf.sub(p, tf.pad(tf.mul(lap, cc), [[1, 1], [1, 1]]));
                return [tf.sub(f, tf.mul(q, half)), q];
              });
              phi.dispose();
              p.dispose();
              phi = phi2!;
              p = p2!;
            }
            return (await phi.data()) as Float32Array;
          };
        };
        const live = stepper();
        return { run: live, result: () => stepper()() };
      }
      if (c.id === 'call-compiled') return 'no compiled form (no jit in TensorFlow.js)';
      if (c.id === 'call') {
        const run = async (): Promise<Float32Array | number> => read(tf.tidy(() => chain(tf.tensor1d(ins[0]!), tf.tensor1d(ins[1]!))));
        return { run, result: run };
      }
      const t = c.id === 'matmul' ? [tf.tensor2d(ins[0]!, [n, n]), tf.tensor2d(ins[1]!, [n, n])]
        : c.id === 'matvec' ? [tf.tensor2d(ins[0]!, [n, n]), tf.tensor2d(ins[1]!, [n, 1])]
        : ins.map((x) => tf.tensor1d(x));
      const [a, b, T] = t;
      let f: () => Tensor;
      switch (c.id) {
        case 'foo': f = () => tf.sum(tf.square(tf.div(tf.mul(a!, Math.PI), 180))); break;
        case 'foo-folded': f = () => tf.sum(tf.square(tf.mul(a!, Math.PI / 180))); break;
        case 'chain': f = () => chain(a!, b!); break;
        case 'sincos': f = () => tf.add(tf.square(tf.sin(a!)), tf.square(tf.cos(b!))); break;
        case 'blackscholes': f = () => blackScholes(a!, b!, T!); break;
        case 'matmul': case 'matvec': f = () => tf.matMul(a!, b!); break;
        default: return `not written for ${c.id}`;
      }
      const run = async (): Promise<Float32Array | number> => read(tf.tidy(f));
      return { run, result: run };
    },
  };
}

export { tfjs };
