// The machine's limits for the peer benchmark, in a process of its own:
// our streaming read/copy/triad kernels on one thread and on every worker,
// printed as JSON.
import * as da from 'deferred-array';
import { streamingLimits } from '../streaming.js';

const n = Number(process.argv[2]);
const rounds = Number(process.argv[3]);
const { threads } = da.configure();
const one = await streamingLimits(n, rounds);
const all = await streamingLimits(n, rounds, threads);
const byName = (s: typeof one): Record<string, number> => Object.fromEntries(s.map((x) => [x.name.split(' ')[0]!, x.gbPerS]));
process.stdout.write(JSON.stringify({ n, threads, one: byName(one), all: byName(all) }));
await da.shutdown();
