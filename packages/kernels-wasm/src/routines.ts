// kernels-wasm/routines: the routines beside the kernels, an entry of their
// own so that a page loads their code only when a run needs one (deferred-array
// imports them on demand in the browser): radix sorts and selections of
// lines, partitions, scatter-adds and counts, LU with partial pivoting, and
// the loops of QR, eigh, the SVD and Cholesky over matrices in the heap.
export { sortLines } from './routines/radix-sort.js';
export { selectJob, sortJob } from './routines/sort-job.js';
export type { SortJob } from './routines/sort-job.js';
export { longSortJobs } from './routines/long-sort-job.js';
export { onlyLaunch } from './routines/routine-kernel.js';
export type { RoutineJob, RoutineSequence } from './routines/routine-kernel.js';
export { selectLines } from './routines/select.js';
export { partitionLines } from './routines/partition.js';
export type { PartitionOutput } from './routines/partition.js';
export type { SortKind, SortOutput } from './routines/radix-sort.js';
export { luFactor, luSolve, LU_SCRATCH } from './routines/lu.js';
export type { LuFactors } from './routines/lu.js';
export { addAt, checkedAddAt, countJob, countSpreads, firstIndexOutside } from './routines/scatter.js';
export type { CountJob } from './routines/scatter.js';
export type { AddAtType } from './routines/scatter.js';
export { reflect, hestenesRow } from './routines/rotations.js';
export { tredApply, tredUpdate, tredAccumulate, qlRotations, sweepTableBytes } from './routines/tridiagonal.js';
export { choleskyColumn } from './routines/cholesky.js';
export type { TridiagonalWork, QlSweep } from './routines/tridiagonal.js';
export type { Reflectors } from './routines/rotations.js';
