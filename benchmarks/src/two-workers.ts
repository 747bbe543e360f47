// `node benchmarks/dist/two-workers.js [workers,...]` (default 2): two of the
// pool's targets with the graph built afresh each call, as code in a loop
// builds it. da.sum(da.sin(x)) over 2^17 float64 through execute() against
// executeSync(); and NEP foo over 2x10^7 float64 through execute() against
// a hand-written WebAssembly read of an array as large on as many workers.
// Each pair is launched alternately; medians of the per-pair ratios. Prints
// one JSON line per worker count. The single-thread time of the sum differs
// between processes on some machines while it stays steady within one: run
// it several times and take the median over processes.
import * as da from 'deferred-array';
import { randomData } from './data.js';
import { openStreams } from './streaming.js';
import { alternately } from './timing.js';


async function main(): Promise<void> {
  const counts = (process.argv[2] ?? '2').split(',').map(Number);
  const small = da.wrap(randomData(1 << 17, 7));
  const n = 2e7;
  const x = da.wrap(randomData(n, 1));
  for (const threads of counts) {
    da.configure({ threads });
    const sumSin = await alternately(() => da.sum(da.sin(small)).execute(), () => da.sum(da.sin(small)).executeSync(), 201, 100);
    const streams = await openStreams(n, threads);
    const foo = await alternately(() => da.sum(da.square(x.mul(Math.PI / 180))).execute(), () => streams.run.read(), 25, 5);
    await streams.close();
    console.log(JSON.stringify({
      workers: threads,
      sumSin: { executeMs: +sumSin.a.toFixed(4), executeSyncMs: +sumSin.b.toFixed(4), speedup: +sumSin.ratio.toFixed(3), target: 1.5 },
      foo: { executeMs: +foo.a.toFixed(3), readMs: +foo.b.toFixed(3), ofRead: +foo.ratio.toFixed(3), target: 0.85 },
    }));
  }
  await da.shutdown();
}

await main();
