// The loop pieces the row kernel (emit-kernel.ts) and the column kernel
// (emit-columns.ts) are written with: the loop over a launch's blocks, the
// element-at-a-time loop, and the SSA body emitted once per element or vector.
import type { FunctionBuilder, Local } from '../encode/index.js';
import { emitRandomScalar } from './philox.js';
import type { RoundKeys } from './philox.js';
import type { EmitContext } from './context.js';
import type { KInstr, KernelSpec } from './kernel-spec.js';
import { emitLoad, emitScalarInstr, emitStore } from './scalar-ops.js';

type ReduceInstr = Extract<KInstr, { op: 'reduce' }>;
type ScanInstr = Extract<KInstr, { op: 'scan' }>;

/**
 * Opens the loop over blocks [blockBegin, blockEnd) (closed by the caller with
 * br 0, end, end) and sets [lo, hi) to the block's range: blk * size up to
 * (blk + 1) * size, cut at `limit`.
 */
function openBlockLoop(f: FunctionBuilder, blk: Local, blockBegin: Local, blockEnd: Local, size: Local, limit: Local,
  lo: Local, hi: Local): void {
  f.op('local.get', blockBegin).op('local.set', blk);
  f.block().loop();
  f.op('local.get', blk).op('local.get', blockEnd).op('i32.ge_u').op('br_if', 1);
  f.op('local.get', blk).op('local.get', size).op('i32.mul').op('local.tee', lo);
  f.op('local.get', size).op('i32.add').op('local.tee', hi).op('local.get', limit).op('local.get', hi)
    .op('local.get', limit).op('i32.lt_u').op('select').op('local.set', hi);
}

/**
 * The element-at-a-time loop: while j < end, the body on scalars through the
 * pointers `cur`, each then advanced by its byte stride; `reduce` folds each
 * reduction's value.
 */
function scalarLoop(
  ctx: EmitContext, spec: KernelSpec, vals: readonly Local[], cur: readonly Local[], strides: readonly Local[],
  j: Local, end: Local, reduce: (r: ReduceInstr, slotIndex: number) => void, keys: ReadonlyMap<number, RoundKeys> = new Map(),
  scan?: (x: ScanInstr, scanIndex: number) => void,
): void {
  const f = ctx.f;
  const types = spec.body.map((ins) => ins.type);
  f.block().loop();
  f.op('local.get', j).op('local.get', end).op('i32.ge_u').op('br_if', 1);
  emitBody(ctx, spec, vals, cur, (ins, k) => {
    if (spec.arrays[k]!.random) {
      emitRandomScalar(f, keys.get(k)!, cur[k]!, spec.arrays[k]!.dtype);
      return;
    }
    f.op('local.get', cur[k]!);
    if (ins.op === 'load') emitLoad(ctx, spec.arrays[k]!.dtype);
  }, (ins) => emitScalarInstr(ctx, ins, vals, types), reduce, (k) => emitStore(ctx, spec.arrays[k]!.dtype), undefined, scan);
  f.op('local.get', j).op('i32.const', 1).op('i32.add').op('local.set', j);
  spec.arrays.forEach((_, k) => {
    f.op('local.get', cur[k]!).op('local.get', strides[k]!).op('i32.add').op('local.set', cur[k]!);
  });
  f.op('br', 0).end().end();
}

/** Emits the SSA body once: values into `vals`, loads and stores through `cur`. */
function emitBody(
  ctx: EmitContext, spec: KernelSpec, vals: readonly Local[], cur: readonly Local[],
  address: (ins: KInstr, array: number) => void, value: (ins: KInstr) => void,
  reduce: (r: ReduceInstr, slotIndex: number) => void, store: (array: number) => void,
  hoisted: (ins: KInstr) => boolean = () => false,
  scan: (x: ScanInstr, scanIndex: number) => void = () => { throw new Error('internal: a scan outside the scalar loop'); },
): void {
  const f = ctx.f;
  let reduceIndex = 0;
  let scanIndex = 0;
  spec.body.forEach((ins, v) => {
    switch (ins.op) {
      case 'load':
        if (hoisted(ins)) break;
        address(ins, ins.array);
        f.op('local.set', vals[v]!);
        break;
      case 'store':
        f.op('local.get', cur[ins.array]!).op('local.get', vals[ins.arg]!);
        store(ins.array);
        break;
      case 'reduce':
        reduce(ins, reduceIndex++);
        break;
      case 'scan':
        scan(ins, scanIndex++);
        f.op('local.set', vals[v]!);
        break;
      default:
        if (hoisted(ins)) break;
        value(ins);
        f.op('local.set', vals[v]!);
    }
  });
}

export { emitBody, scalarLoop, openBlockLoop };
export type { ReduceInstr, ScanInstr };
