// The public API of deferred-array (see shared/api.md). An explicit list:
// nothing is public unless it is named here.
import './api/methods.js';
import './api/kept-graph.js';

export { DeferredArray } from './api/deferred-array.js';
export { wrap, array, full, zeros, ones, empty, arange, linspace } from './api/creation.js';
export * from './api/ufuncs.generated.js';
export { clip } from './api/functions.js';
export { where } from './api/where.js';
export {
  variance as var, std, ptp, countNonzero, average, nansum, nanmean, nanmin, nanmax, nanvar, nanstd, isclose, allclose,
} from './api/statistics.js';
export { flip, roll, diff, tile, repeat } from './api/rearranging.js';
export { cumsum, cumprod, nancumsum } from './api/scans.js';
export { sort, argsort, searchsorted, partition, argpartition, lexsort } from './api/sorting.js';
export { median, nanmedian, quantile, percentile, nanquantile, nanpercentile } from './api/quantiles.js';
export { unique, isin, intersect1d, union1d, setdiff1d } from './api/sets.js';
export { bincount, histogram } from './api/counting.js';
export { addAt } from './api/add-at.js';
export { interp } from './api/interp.js';
export { linalg } from './api/linalg.js';
export type { EighOptions, SvdOptions, NormOptions, NormOrder } from './api/linalg.js';
export type { InterpOptions } from './api/interp.js';
export { take, nonzero, compress, get } from './api/selection.js';
export { eye, identity, tri, tril, triu, diag, diagonal, meshgrid, indices } from './api/matrices.js';
export { pad } from './api/pad.js';
export { tensordot } from './api/tensordot.js';
export { einsum } from './api/einsum.js';
export { kron, cross, arrayEqual } from './api/products.js';
export { correlate, convolve } from './api/convolve.js';
export { unravelIndex, ravelMultiIndex } from './api/flat-index.js';
export {
  reshape, transpose, broadcastTo, slidingWindowView, squeeze, expandDims, concat, stack, astype,
  sum, prod, min, max, mean, any, all, argmin, argmax, matmul, dot, outer,
} from './api/shaping.js';
export { execute, executeSync, shutdown, stats, heapStats, configure } from './api/execute.js';
export { Runtime, createRuntime } from './api/runtime.js';
export { scope, scopeSync, release } from './api/results.js';
export { trace, flush, flushSync } from './api/trace.js';
export { cond } from './api/cond.js';
export { random, Generator } from './api/random.js';
export { compile } from './api/compile.js';
export { load, save, savez, savezCompressed, fromZarr } from './api/data-files.js';
export { NpzFile } from './api/npz-file.js';
export { size, placeholder, Size } from './ir/symbols.js';
export { DTYPES } from './ir/dtypes.js';
export {
  DeferredArrayError, ShapeError, DTypeError, StaleArrayError, HeapError, WorkerError,
  ExecutionError, DisposedError, OutputNameError, NotSupportedError, FileFormatError, LinAlgError,
} from './ir/errors.js';

export type { DType } from './ir/dtypes.js';
export type { Config, ConfigureOptions, ErrorPolicy, ErrorAction } from './execute/config.js';
export type { OutputRecord } from './execute/linker.js';
export type { ExecuteOptions } from './results/request.js';
export type { OutOption } from './results/out.js';
export type { HeapStatistics, CacheStats, Stats } from './api/execute.js';
export type { Operand, UfuncOptions } from './api/ufunc.js';
export type { ReduceOptions } from './ir/build-reduce.js';
export type { VarianceOptions, AverageOptions, IscloseOptions } from './api/statistics.js';
export type { DiffOptions } from './api/rearranging.js';
export type { DiagonalOptions } from './api/matrices.js';
export type { PadMode, PadOptions, PadWidth } from './api/pad.js';
export type { TensordotAxes } from './api/tensordot.js';
export type { Sublist } from './api/einsum.js';
export type { ConvolveMode } from './api/convolve.js';
export type { RavelMode, FlatOrder } from './api/flat-index.js';
export type { ScanOptions } from './api/scans.js';
export type { SortOptions, SearchOptions, PartitionOptions } from './api/sorting.js';
export type { MedianOptions, QuantileOptions, QuantileMethod } from './api/quantiles.js';
export type { UniqueOptions, IsinOptions, IntersectOptions, SetdiffOptions } from './api/sets.js';
export type { BincountOptions, HistogramOptions } from './api/counting.js';
export type { TakeOptions } from './api/selection.js';
export type { TakeMode } from './ir/node.js';
export type { IndexArg } from './ir/indexing.js';
export type { DTypeOption } from './api/creation.js';
export type { StdNdarray } from './util/stdlib.js';
export type { TraceInfo, TracedComputation } from './api/trace.js';
export type { InPlaceMethods } from './api/methods.js';
export type { CompiledFunction } from './api/compile.js';
export type { LoadSource, LoadOptions, SaveTarget, Savable } from './api/load-save.js';
export type { NpzRecord } from './api/npz-file.js';
export type { FromZarrOptions } from './api/zarr.js';
export type { ZarrStore } from './io/zarr.js';
export type { Placeholder, Dim } from './ir/symbols.js';
