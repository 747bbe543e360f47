// The vector-math table for the peer benchmark, in a process of its own:
// ours (float64 and float32) against V8's Math per core, as `npm run main`
// prints it, written as JSON: { n, rounds, rows }.
import * as da from 'deferred-array';
import { vectorMathReport } from '../vector-math.js';

const n = Number(process.argv[2]);
const rounds = Number(process.argv[3]);
process.stdout.write(JSON.stringify({ n, rounds, rows: vectorMathReport(n, rounds) }));
await da.shutdown();
