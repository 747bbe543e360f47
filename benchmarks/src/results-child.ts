// One variant of the results benchmark, in a process of its own (see
// isolated.ts): the 10-op chain over two float64 inputs, its result handed
// to the caller one way or another, or the same work without the package.
import * as da from 'deferred-array';
import { chain, chainJs, randomData } from './data.js';
import { serveVariant } from './isolated.js';
import { openStreams } from './streaming.js';

const n = Number(process.argv[3]);

/** Reads one element of a result, a different one each run, as a user reading it would. */
let k = 0;
const read = (r: unknown): number => ((r as da.StdNdarray).get((k = (k + 7919) % n)) as number);

await serveVariant(async (name) => {
  const a = randomData(n, 4);
  const b = randomData(n, 5);
  const y = chain(da.wrap(a), da.wrap(b));
  const owned = new Float64Array(n);
  switch (name) {
    case 'execute': return async () => read(await y.execute());
    case 'executeSync': return () => read(y.executeSync());
    case 'scope': return () => da.scope(async () => read(await y.execute()));
    case 'scopeSync': return () => da.scopeSync(() => read(y.executeSync()));
    case 'out': return async () => read(await y.execute({ out: owned }));
    case 'outSync': return () => read(y.executeSync({ out: owned }));
    case 'outView': {
      const v = await y.execute({ view: true });
      return async () => read(await y.execute({ out: v }));
    }
    case 'loopFresh': return () => {
      const o = new Float64Array(n);
      for (let i = 0; i < n; i++) o[i] = chainJs(a[i]!, b[i]!);
      return o[(k = (k + 7919) % n)];
    };
    case 'loopOwned': return () => {
      for (let i = 0; i < n; i++) owned[i] = chainJs(a[i]!, b[i]!);
      return owned[(k = (k + 7919) % n)];
    };
    case 'triad': {
      const s = await openStreams(n, da.configure().threads);
      return () => s.run.triad();
    }
    default: throw new Error(`no variant ${name}`);
  }
});
