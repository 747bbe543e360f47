// `node benchmarks/dist/math-targets-main.js [rounds]`: the slower math functions' targets (math-targets.ts) alone.
import * as da from 'deferred-array';
import { mathTargetsReport, printMathTargets } from './math-targets.js';

const rounds = Number(process.argv[2] ?? 7);
console.log(printMathTargets(mathTargetsReport(1 << 20, rounds), 1 << 20, rounds));
await da.shutdown();
