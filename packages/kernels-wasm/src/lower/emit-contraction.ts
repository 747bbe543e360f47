// Contraction kernels: kernel(args, b0, b1) runs, per block, the tile function
// C[r, q] = sum_k A[r, k] * B[k, q] over the block's (flattened batch x) rows of C, then the
// elementwise body over the same rows. Tiles are SIMD, each product element
// accumulated in k order from +0 exactly as the reference evaluator's triple
// loop does (a lane is one output element; blocking never splits a sum), so
// results are bit-identical to it and to any split of blocks between workers.
//
// Two vectorisations, chosen by the spec:
// - 'columns' (Q >= lanes, B contiguous along q): a lane is a column of C.
//   A register tile of 4 rows x 2 vectors accumulates over k; A's element is
//   splatted, B's row segment loaded as a vector. The block's rows pass over
//   B in panels of 128 steps of k by 64 columns, which stay in cache; a sum
//   is stored in C between its panels and taken up again, exactly.
// - 'rows' (matrix-vector products, A contiguous along k): a lane is a row of
//   C. Each row of A is loaded a vector at a time along k and groups of rows
//   are transposed in registers, so lane l still adds its own row's products
//   in k order.
import type { FunctionBuilder, Local, ModuleBuilder } from '../encode/index.js';
import { InternalError } from '../internal-error.js';
import type { EmitContext } from './context.js';
import { emitKernel } from './emit-kernel.js';
import type { KernelOptions } from './emit-kernel.js';
import { emitColumns, shapeOf } from './emit-contraction-segments.js';
import { emitRows } from './emit-contraction-rows.js';
import type { Segment, Shape } from './emit-contraction-segments.js';
import { blockLoop, loop } from './emit-loops.js';
import type { Lanes } from './simd-widths.js';
import { CONTRACTION, argsBytes } from './args-layout.js';
import type { ContractionSpec, KernelSpec } from './kernel-spec.js';

/** The contraction's sizes, pointers and byte strides, read from the launch block into locals. */
interface TileFields {
  readonly rows: Local; readonly P: Local; readonly K: Local; readonly Q: Local; readonly R: Local;
  readonly aPtr: Local; readonly aBatch: Local; readonly aRow: Local; readonly aCol: Local;
  readonly bPtr: Local; readonly bBatch: Local; readonly bRow: Local; readonly bCol: Local;
  readonly cPtr: Local; readonly cRow: Local;
}

/** Reads the contraction's fields (element strides scaled to bytes) and C's pointer and row stride. */
function loadTileFields(f: FunctionBuilder, spec: KernelSpec, c: ContractionSpec, sh: Shape): TileFields {
  const args = f.param(0);
  const base = argsBytes(spec.ndim, spec.arrays.length);
  const i32 = (): Local => f.local('i32');
  const field = (offset: number, into: Local, bytes = 1): void => {
    f.op('local.get', args);
    f.mem('i32.load', { offset });
    if (bytes !== 1) f.op('i32.const', bytes).op('i32.mul');
    f.op('local.set', into);
  };
  const [rows, P, K, Q, R] = [i32(), i32(), i32(), i32(), i32()];
  const [aPtr, aBatch, aRow, aCol, bPtr, bBatch, bRow, bCol, cPtr, cRow] = [i32(), i32(), i32(), i32(), i32(), i32(), i32(), i32(), i32(), i32()];
  field(base + CONTRACTION.rows, rows);
  field(base + CONTRACTION.P, P);
  field(base + CONTRACTION.K, K);
  field(base + CONTRACTION.Q, Q);
  field(base + CONTRACTION.rowsPerBlock, R);
  field(base + CONTRACTION.aPtr, aPtr);
  field(base + CONTRACTION.aBatch, aBatch, sh.E);
  field(base + CONTRACTION.aRow, aRow, sh.E);
  field(base + CONTRACTION.aCol, aCol, sh.E);
  field(base + CONTRACTION.bPtr, bPtr);
  field(base + CONTRACTION.bBatch, bBatch, sh.E);
  field(base + CONTRACTION.bRow, bRow, sh.E);
  field(base + CONTRACTION.bCol, bCol, sh.E);
  // The product is the epilogue array `c.product`: contiguous, a row every Q elements.
  field(argsBytes(spec.ndim, c.product), cPtr);
  f.op('local.get', Q).op('i32.const', sh.E).op('i32.mul').op('local.set', cRow);
  return { rows, P, K, Q, R, aPtr, aBatch, aRow, aCol, bPtr, bBatch, bRow, bCol, cPtr, cRow };
}

/** Emits tile(args, block) into `f`: rows [r, r1) of this block, cut where a batch ends, a segment each (one batch of A and B). */
function emitContractionTile(f: FunctionBuilder, spec: KernelSpec, c: ContractionSpec): void {
  const sh = shapeOf(c);
  const blk = f.param(1);
  const t = loadTileFields(f, spec, c, sh);
  const i32 = (): Local => f.local('i32');
  const get = (l: Local): void => { f.op('local.get', l); };
  const set = (l: Local): void => { f.op('local.set', l); };
  const [r, r1, b, p, segEnd, n, aBase, bBase, cBase] = [i32(), i32(), i32(), i32(), i32(), i32(), i32(), i32(), i32()];
  const min = (x: Local, y: Local, into: Local): void => {
    get(x); get(y); get(x); get(y); f.op('i32.lt_u').op('select'); set(into);
  };
  get(blk); get(t.R); f.op('i32.mul'); set(r);
  get(r); get(t.R); f.op('i32.add'); set(r1);
  min(r1, t.rows, r1);
  loop(f, () => { get(r); get(r1); f.op('i32.ge_u'); }, () => {
    get(r); get(t.P); f.op('i32.div_u'); set(b);
    get(r); get(b); get(t.P); f.op('i32.mul').op('i32.sub'); set(p);
    get(r); get(t.P); f.op('i32.add'); get(p); f.op('i32.sub'); set(segEnd);
    min(r1, segEnd, segEnd);
    get(segEnd); get(r); f.op('i32.sub'); set(n);
    get(t.aPtr); get(b); get(t.aBatch); f.op('i32.mul').op('i32.add'); get(p); get(t.aRow); f.op('i32.mul').op('i32.add'); set(aBase);
    get(t.bPtr); get(b); get(t.bBatch); f.op('i32.mul').op('i32.add'); set(bBase);
    get(t.cPtr); get(r); get(t.cRow); f.op('i32.mul').op('i32.add'); set(cBase);
    const seg: Segment = {
      f, sh, n, K: t.K, Q: t.Q, aBase, aRow: t.aRow, aCol: t.aCol, bBase, bRow: t.bRow, bCol: t.bCol, cBase, cRow: t.cRow,
    };
    if (c.vectorise === 'columns') emitColumns(seg);
    else emitRows(seg);
    get(segEnd); set(r);
  });
}

/**
 * `kernel(args, b0, b1, scratch)` of a contraction: per block, the tile of C, then the
 * elementwise body (with its pinned temporaries) over the same rows of C while they are in cache.
 */
function emitContractionKernel(m: ModuleBuilder, spec: KernelSpec, lanes: Lanes | undefined, contextOf: (f: FunctionBuilder) => EmitContext,
  options: (f: FunctionBuilder) => KernelOptions): number {
  const c = spec.contraction;
  if (!c) throw new InternalError('emitContractionKernel needs a spec with a contraction');
  const [tileIndex, tile] = m.func('tile', ['i32', 'i32'], [], false);
  emitContractionTile(tile, spec, c);
  let epilogueIndex: number | undefined;
  if (spec.body.some((i) => i.op === 'store')) {
    const [index, e] = m.func('epilogue', ['i32', 'i32', 'i32', 'i32'], [], false);
    epilogueIndex = index;
    emitKernel(contextOf(e), spec, lanes, e.param(1), e.param(2), options(e));
  }
  const [kernelIndex, f] = m.func('kernel', ['i32', 'i32', 'i32', 'i32'], []);
  const [args, b0, b1] = [f.param(0), f.param(1), f.param(2)];
  const blk = f.local('i32');
  blockLoop(f, blk, b0, b1, () => {
    f.op('local.get', args).op('local.get', blk).op('call', tileIndex);
    if (epilogueIndex === undefined) return;
    f.op('local.get', args).op('local.get', blk).op('local.get', blk).op('i32.const', 1).op('i32.add').op('local.get', f.param(3)).op('call', epilogueIndex);
  });
  return kernelIndex;
}

export { emitContractionKernel };
