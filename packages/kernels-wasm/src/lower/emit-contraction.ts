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
//   splatted, B's row segment loaded as a vector.
// - 'rows' (matrix-vector products, A contiguous along k): a lane is a row of
//   C. Each row of A is loaded a vector at a time along k and groups of rows
//   are transposed in registers, so lane l still adds its own row's products
//   in k order.
import type { FunctionBuilder, Local, ModuleBuilder } from '../encode/index.js';
import type { EmitContext } from './context.js';
import { emitKernel } from './emit-kernel.js';
import type { KernelOptions } from './emit-kernel.js';
import { emitColumns, emitRows, shapeOf } from './emit-contraction-segments.js';
import type { Segment } from './emit-contraction-segments.js';
import type { Lanes } from './simd-widths.js';
import { CONTRACTION, argsBytes } from './args-layout.js';
import type { KernelSpec } from './kernel-spec.js';


/** Emits tile(args, block) into `f`. */
function emitContractionTile(f: FunctionBuilder, spec: KernelSpec): void {
  const c = spec.contraction!;
  const sh = shapeOf(c);
  const args = f.param(0);
  const blk = f.param(1);
  const base = argsBytes(spec.ndim, spec.arrays.length);
  const i32 = (): Local => f.local('i32');
  const get = (l: Local): void => { f.op('local.get', l); };
  const set = (l: Local): void => { f.op('local.set', l); };
  const field = (offset: number, into: Local, bytes = 1): void => {
    get(args);
    f.mem('i32.load', { offset });
    if (bytes !== 1) f.op('i32.const', bytes).op('i32.mul');
    set(into);
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
  get(Q); f.op('i32.const', sh.E).op('i32.mul'); set(cRow);

  // Rows [r, r1) of this block, cut where a batch ends: a segment reads one batch of A and B.
  const [r, r1, b, p, segEnd, n, aBase, bBase, cBase] = [i32(), i32(), i32(), i32(), i32(), i32(), i32(), i32(), i32()];
  const min = (x: Local, y: Local, into: Local): void => {
    get(x); get(y); get(x); get(y); f.op('i32.lt_u').op('select'); set(into);
  };
  get(blk); get(R); f.op('i32.mul'); set(r);
  get(r); get(R); f.op('i32.add'); set(r1);
  min(r1, rows, r1);
  f.block().loop();
  get(r); get(r1); f.op('i32.ge_u').op('br_if', 1);
  get(r); get(P); f.op('i32.div_u'); set(b);
  get(r); get(b); get(P); f.op('i32.mul').op('i32.sub'); set(p);
  get(r); get(P); f.op('i32.add'); get(p); f.op('i32.sub'); set(segEnd);
  min(r1, segEnd, segEnd);
  get(segEnd); get(r); f.op('i32.sub'); set(n);
  get(aPtr); get(b); get(aBatch); f.op('i32.mul').op('i32.add'); get(p); get(aRow); f.op('i32.mul').op('i32.add'); set(aBase);
  get(bPtr); get(b); get(bBatch); f.op('i32.mul').op('i32.add'); set(bBase);
  get(cPtr); get(r); get(cRow); f.op('i32.mul').op('i32.add'); set(cBase);
  const seg: Segment = { f, sh, n, K, Q, aBase, aRow, aCol, bBase, bRow, bCol, cBase, cRow };
  if (c.vectorise === 'columns') emitColumns(seg);
  else emitRows(seg);
  get(segEnd); set(r);
  f.op('br', 0).end().end();
}


/**
 * `kernel(args, b0, b1, scratch)` of a contraction: per block, the tile of C, then the
 * elementwise body (with its pinned temporaries) over the same rows of C while they are in cache.
 */
function emitContractionKernel(m: ModuleBuilder, spec: KernelSpec, lanes: Lanes | undefined, contextOf: (f: FunctionBuilder) => EmitContext,
  options: (f: FunctionBuilder) => KernelOptions): number {
  const [tileIndex, tile] = m.func('tile', ['i32', 'i32'], [], false);
  emitContractionTile(tile, spec);
  let epilogueIndex: number | undefined;
  if (spec.body.some((i) => i.op === 'store')) {
    const [index, e] = m.func('epilogue', ['i32', 'i32', 'i32', 'i32'], [], false);
    epilogueIndex = index;
    emitKernel(contextOf(e), spec, lanes, e.param(1), e.param(2), options(e));
  }
  const [kernelIndex, f] = m.func('kernel', ['i32', 'i32', 'i32', 'i32'], []);
  const [args, b0, b1] = [f.param(0), f.param(1), f.param(2)];
  const blk = f.local('i32');
  f.op('local.get', b0).op('local.set', blk);
  f.block().loop();
  f.op('local.get', blk).op('local.get', b1).op('i32.ge_u').op('br_if', 1);
  f.op('local.get', args).op('local.get', blk).op('call', tileIndex);
  if (epilogueIndex !== undefined) {
    f.op('local.get', args).op('local.get', blk).op('local.get', blk).op('i32.const', 1).op('i32.add').op('local.get', f.param(3)).op('call', epilogueIndex);
  }
  f.op('local.get', blk).op('i32.const', 1).op('i32.add').op('local.set', blk);
  f.op('br', 0).end().end();
  return kernelIndex;
}


export { emitContractionKernel };
