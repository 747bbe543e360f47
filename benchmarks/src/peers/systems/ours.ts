// deferred-array itself: execute() (the NEP default: a copy the collector
// owns), execute() inside da.scope (views of the heap, no copy), or the
// plain TypeScript reference evaluator (the oracle the check compares with).
import * as da from 'deferred-array';
import { makeWave, step } from 'deferred-array-examples/wave';
import { chain } from '../../data.js';
import { BS, CDF_C, CDF_K, WAVE_STEPS } from '../cases.js';
import type { CaseSpec } from '../cases.js';
import { packageVersion } from './system.js';
import type { Built, Result, System } from './system.js';

type Mode = 'execute' | 'views' | 'reference';

const cdf = (d: da.DeferredArray): da.DeferredArray => d.add(d.mul(d).mul(d).mul(CDF_C)).mul(CDF_K).tanh().add(1).mul(0.5);

function blackScholes(S: da.DeferredArray, X: da.DeferredArray, T: da.DeferredArray): da.DeferredArray {
  const vSqrtT = T.sqrt().mul(BS.v);
  const d1 = S.div(X).log().add(T.mul(BS.r + (BS.v * BS.v) / 2)).div(vSqrtT);
  const d2 = d1.sub(vSqrtT);
  return S.mul(cdf(d1)).sub(X.mul(T.mul(-BS.r).exp()).mul(cdf(d2)));
}

/** The graph of an array or scalar case over wrapped inputs. */
function graphOf(c: CaseSpec, n: number, inputs: Float64Array[]): da.DeferredArray {
  const w = inputs.map((x) => da.wrap(x));
  switch (c.id) {
    case 'foo': return da.sum(da.square(w[0]!.mul(Math.PI).div(180)));
    case 'foo-folded': return da.sum(da.square(w[0]!.mul(Math.PI / 180)));
    case 'chain': return chain(w[0]!, w[1]!);
    case 'sincos': return da.add(da.square(da.sin(w[0]!)), da.square(da.cos(w[1]!)));
    case 'blackscholes': return blackScholes(w[0]!, w[1]!, w[2]!);
    case 'matmul': return w[0]!.reshape([n, n]).matmul(w[1]!.reshape([n, n]));
    case 'matvec': return w[0]!.reshape([n, n]).matmul(w[1]!);
    default: throw new Error(`no graph for ${c.id}`);
  }
}

const plain = (r: unknown): Result => {
  const nd = r as da.StdNdarray;
  return nd.shape.length === 0 ? (nd.get() as number) : (nd.data as Float64Array);
};

/** Reads one element, a different one each call, as a user reading the result would. */
let k = 0;
const touch = (r: unknown): number => {
  const nd = r as da.StdNdarray;
  const data = nd.data as Float64Array;
  return nd.shape.length === 0 ? (nd.get() as number) : data[(k = (k + 7919) % data.length)]!;
};

function ours(mode: Mode, threads?: number): System {
  return {
    label: mode === 'views' ? 'deferred-array, views (da.scope)' : mode === 'reference' ? 'reference evaluator' : `deferred-array${threads ? `, ${threads} worker(s)` : ''}`,
    dtype: 'float64',
    async load() {
      if (mode === 'reference') da.configure({ backend: 'reference' });
      if (threads) da.configure({ threads });
      return { version: packageVersion('deferred-array'), note: `${da.configure().threads} worker(s)` };
    },
    async build(c, n): Promise<Built | string> {
      if (mode === 'views' && ['wave', 'call', 'call-compiled'].includes(c.id)) return 'no result array to hand back: the same as execute()';
      const inputs = c.inputs(n);
      if (c.id === 'wave') {
        const w = makeWave(n);
        return {
          run: async () => {
            for (let s = 0; s < WAVE_STEPS; s++) step(w);
            await da.flush();
          },
          result: async () => {
            const fresh = makeWave(n);
            for (let s = 0; s < WAVE_STEPS; s++) step(fresh);
            return plain(await fresh.phi.execute());
          },
        };
      }
      if (c.id === 'call-compiled') {
        const f = da.compile(chain, [da.placeholder([n], 'float64'), da.placeholder([n], 'float64')]);
        return { run: async () => touch(await f(inputs[0]!, inputs[1]!)), result: async () => plain(await f(inputs[0]!, inputs[1]!)) };
      }
      if (c.id === 'call') {
        const once = async (): Promise<unknown> => chain(da.wrap(inputs[0]!), da.wrap(inputs[1]!)).execute();
        return { run: async () => touch(await once()), result: async () => plain(await once()) };
      }
      const y = graphOf(c, n, inputs);
      if (mode === 'views') {
        if (y.shape.length === 0) return 'a scalar result: nothing to view';
        return {
          run: () => da.scope(async () => touch(await y.execute())),
          result: () => da.scope(async () => (plain(await y.execute()) as Float64Array).slice()),
        };
      }
      return { run: async () => touch(await y.execute()), result: async () => plain(await y.execute()) };
    },
  };
}

export { ours };
