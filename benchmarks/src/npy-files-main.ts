// `node benchmarks/dist/npy-files-main.js [n] [rounds]`: the NumPy files section (npy-files.ts) alone.
import * as da from 'deferred-array';
import { npyReport, printNpy } from './npy-files.js';

const n = Number(process.argv[2] ?? 1e7);
const rounds = Number(process.argv[3] ?? 7);
console.log(printNpy(await npyReport(n, rounds)));
await da.shutdown();
