// `node benchmarks/dist/side-paths-main.js [rounds]`: the paths-beside-the-fused-one section (side-paths.ts) alone.
import * as da from 'deferred-array';
import { printSidePaths, sidePathsReport } from './side-paths.js';

console.log(printSidePaths(await sidePathsReport(Number(process.argv[2] ?? 7))));
await da.shutdown();
