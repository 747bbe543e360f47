// `BIG_GB=4.5 node benchmarks/dist/big-file-main.js [rounds]`: the streamed big-file section (big-file.ts) alone.
import * as da from 'deferred-array';
import { bigFileReport, printBigFile } from './big-file.js';

const gb = Number(process.env['BIG_GB'] ?? 1);
const rounds = Number(process.argv[2] ?? 3);
console.log(printBigFile(await bigFileReport(gb, rounds, process.stdout.isTTY === true)));
await da.shutdown();
