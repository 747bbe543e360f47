// The loop skeleton the row kernel (emit-kernel.ts), the column kernel
// (emit-columns.ts) and the contraction tiles are written with: loops that
// exit at the top, the loop over a launch's blocks, the loop stepping a
// counter by a vector's (or a group's) width, the element-at-a-time loop, and
// the SSA body emitted once per element or vector.
import type { FunctionBuilder, Local } from '../encode/index.js';
import { InternalError, at } from '../internal-error.js';
import { emitRandomScalar } from './philox.js';
import type { RoundKeys } from './philox.js';
import { scalarType } from './context.js';
import type { EmitContext } from './context.js';
import { KTYPE_BYTES } from './kernel-spec.js';
import type { KInstr, KType, KernelSpec } from './kernel-spec.js';
import { emitLoad, emitScalarInstr, emitStore } from './scalar-ops.js';
import { ARGS } from './args-layout.js';
import { loadArg } from './emit-values.js';
import { gatherEmitter } from './emit-gathers.js';
import type { GatherInstr } from './emit-gathers.js';
import { emitSimdInstr, splatConst } from './simd-ops.js';
import { emitVectorLoad, emitVectorStore } from './simd-widths.js';
import type { Lanes } from './simd-widths.js';

type ReduceInstr = Extract<KInstr, { op: 'reduce' }>;
type ScanInstr = Extract<KInstr, { op: 'scan' }>;

/** Elements per iteration of a gather kernel's unrolled loop. */
const GATHER_UNROLL = 4;

/** A loop that leaves when `exit` pushes true (tested first), running `body` otherwise. */
function loop(f: FunctionBuilder, exit: () => void, body: () => void): void {
  f.block().loop();
  exit();
  f.op('br_if', 1);
  body();
  f.op('br', 0).end().end();
}

/** counter = counter + by. */
function bump(f: FunctionBuilder, counter: Local, by: number): void {
  f.op('local.get', counter).op('i32.const', by).op('i32.add').op('local.set', counter);
}

/**
 * While counter + step <= end: `body`, counter += step, then `advance` (the
 * pointers that move with the counter).
 */
function stepLoop(f: FunctionBuilder, counter: Local, step: number, end: Local, body: () => void, advance: () => void = () => {}): void {
  loop(f, () => { f.op('local.get', counter).op('i32.const', step).op('i32.add').op('local.get', end).op('i32.gt_u'); }, () => {
    body();
    bump(f, counter, step);
    advance();
  });
}

/** The loop over blocks [blockBegin, blockEnd): `body` with `blk` the block's number. */
function blockLoop(f: FunctionBuilder, blk: Local, blockBegin: Local, blockEnd: Local, body: () => void): void {
  f.op('local.get', blockBegin).op('local.set', blk);
  loop(f, () => { f.op('local.get', blk).op('local.get', blockEnd).op('i32.ge_u'); }, () => {
    body();
    bump(f, blk, 1);
  });
}

/**
 * The loop over blocks whose range [lo, hi) `body` walks: blk * size up to
 * (blk + 1) * size, cut at `limit`.
 */
function blockRangeLoop(f: FunctionBuilder, blk: Local, blockBegin: Local, blockEnd: Local, size: Local, limit: Local,
  lo: Local, hi: Local, body: () => void): void {
  blockLoop(f, blk, blockBegin, blockEnd, () => {
    f.op('local.get', blk).op('local.get', size).op('i32.mul').op('local.tee', lo);
    f.op('local.get', size).op('i32.add').op('local.tee', hi).op('local.get', limit).op('local.get', hi)
      .op('local.get', limit).op('i32.lt_u').op('select').op('local.set', hi);
    body();
  });
}

/** One pass of a block loop's body over [begin, end) as the block's range [lo, hi): a pinned temporary's computation. */
function rangeLoop(f: FunctionBuilder, blk: Local, begin: Local, end: Local, lo: Local, hi: Local, body: () => void): void {
  f.op('i32.const', 0).op('local.set', blk);
  loop(f, () => { f.op('local.get', blk); }, () => {
    f.op('local.get', begin).op('local.set', lo);
    f.op('local.get', end).op('local.set', hi);
    body();
    bump(f, blk, 1);
  });
}

/** Pushes the address of a row kernel's partial for `slot` of the piece `piece()` pushes: partials + (piece * slots + slot) * 8. */
function piecePartialAddress(ctx: EmitContext, slots: number, piece: () => void, slot: number): void {
  loadArg(ctx, ARGS.partials);
  piece();
  ctx.f.op('i32.const', slots).op('i32.mul').op('i32.const', slot).op('i32.add').op('i32.const', 8).op('i32.mul').op('i32.add');
}

/** Where the body's values live: a scalar local per value (none for stores and reductions), and with lanes a v128 per instruction. */
interface ValueLocals {
  readonly types: readonly KType[];
  readonly scalar: readonly Local[];
  readonly vector: readonly Local[];
}

/** Marks the instructions that leave no value (stores, reductions): their scalar slot is never read. */
const NO_VALUE = -1 as Local;

function valueLocals(f: FunctionBuilder, spec: KernelSpec, lanes: Lanes | undefined): ValueLocals {
  return {
    types: spec.body.map((ins) => ins.type),
    scalar: spec.body.map((ins) => (ins.op === 'store' || ins.op === 'reduce' ? NO_VALUE : f.local(scalarType(ins.type)))),
    vector: lanes ? spec.body.map(() => f.local('v128')) : [],
  };
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
  const gather = spec.body.some((ins) => ins.op === 'gather') ? gatherEmitter(ctx, spec, vals, cur) : undefined;
  gather?.setup();
  // The byte offset of array k's element u places past its pointer: along a contiguous row only.
  const offset = (k: number, u: number): number => {
    const a = at(spec.arrays, k, 'array');
    return a.inner === 'contiguous' ? u * KTYPE_BYTES[a.dtype] : 0;
  };
  /** The body for the element u places past the pointers. */
  const element = (u: number): void => {
    emitBody(ctx, spec, vals, cur, (k) => {
      const a = at(spec.arrays, k, 'array');
      const ptr = at(cur, k, 'array pointer');
      if (a.random) emitRandomScalar(f, randomKeys(keys, k), ptr, a.dtype);
      else {
        f.op('local.get', ptr);
        emitLoad(ctx, a.dtype, offset(k, u));
      }
    }, (ins) => emitScalarInstr(ctx, ins, vals, types), reduce, (k) => emitStore(ctx, at(spec.arrays, k, 'array').dtype, offset(k, u)),
    undefined, scan, gather && ((g) => { gather.emit(g, offset(g.array, u)); }));
  };
  // A gather from memory waits on its reads: GATHER_UNROLL elements per
  // iteration, their pointers moved once, keep fewer instructions between
  // reads, so more of them are in flight (a loop like a hand-written one).
  const plain = (a: KernelSpec['arrays'][number]): boolean => a.inner !== 'strided' && !a.random;
  if (gather && spec.arrays.every(plain) && !spec.body.some((ins) => ins.op === 'reduce' || ins.op === 'scan')) {
    stepLoop(f, j, GATHER_UNROLL, end, () => {
      for (let u = 0; u < GATHER_UNROLL; u++) element(u);
    }, () => {
      cur.forEach((p, k) => {
        const a = at(spec.arrays, k, 'array');
        if (a.inner === 'contiguous') f.op('local.get', p).op('i32.const', GATHER_UNROLL * KTYPE_BYTES[a.dtype]).op('i32.add').op('local.set', p);
      });
    });
  }
  loop(f, () => { f.op('local.get', j).op('local.get', end).op('i32.ge_u'); }, () => {
    element(0);
    bump(f, j, 1);
    cur.forEach((p, k) => {
      // A broadcast array's inner stride is 0: its pointer stays.
      if (spec.arrays[k]?.inner === 'broadcast') return;
      f.op('local.get', p).op('local.get', at(strides, k, 'array stride')).op('i32.add').op('local.set', p);
    });
  });
}

/** Random array k's round keys. */
function randomKeys(keys: ReadonlyMap<number, RoundKeys>, k: number): RoundKeys {
  const found = keys.get(k);
  if (!found) throw new InternalError(`random array ${k} has no round keys`);
  return found;
}

/** What one vector step of the body needs besides the spec and the array pointers. */
interface VectorStep {
  readonly lanes: Lanes;
  readonly values: ValueLocals;
  /** Byte offset of array k's access from its pointer at this step. */
  offset(k: number): number;
  /** How math routines are applied: written out in the hot loop, called elsewhere. */
  readonly math: 'inline' | 'call';
  reduce(r: ReduceInstr, slotIndex: number): void;
  /** Pushes a scan's vector value (column kernels; no other kernel scans in lanes). */
  scan?(x: ScanInstr, scanIndex: number): void;
  /** Instructions whose value was set before the loop. */
  hoisted(ins: KInstr): boolean;
  /** Pushes random array k's vector for this step (row kernels; no other kernel reads random arrays). */
  random?(k: number): void;
  /** Pushes a gather's vector for this step (row kernels; no other kernel gathers in lanes). */
  gather?(g: GatherInstr): void;
}

/** Emits the body once on vectors through the pointers `ptr`. */
function emitVectorStep(ctx: EmitContext, spec: KernelSpec, ptr: readonly Local[], step: VectorStep): void {
  const f = ctx.f;
  const { lanes, values } = step;
  emitBody(ctx, spec, values.vector, ptr, (k) => {
    const a = at(spec.arrays, k, 'array');
    if (!a.random) {
      f.op('local.get', at(ptr, k, 'array pointer'));
      emitVectorLoad(ctx, lanes, a.dtype, a.inner === 'broadcast', step.offset(k));
    } else if (step.random) step.random(k);
    else throw new InternalError(`random array ${k} read outside a row kernel`);
  }, (ins) => emitSimdInstr(ctx, lanes, ins, values.vector, values.types, step.math), step.reduce,
  (k) => { emitVectorStore(ctx, lanes, at(spec.arrays, k, 'array').dtype, step.offset(k)); }, step.hoisted, step.scan, step.gather);
}

/**
 * Sets the vector value of each `hoisted` instruction once, before the loops
 * that use it (V8 does not hoist a v128.const out of a loop): constants
 * splatted, loads by `load(k)`, which pushes array k's vector.
 */
function emitHoisted(ctx: EmitContext, spec: KernelSpec, lanes: Lanes, vals: readonly Local[], hoisted: (ins: KInstr) => boolean,
  load: (k: number) => void): void {
  spec.body.forEach((ins, v) => {
    if (!hoisted(ins)) return;
    if (ins.op === 'const') splatConst(ctx, lanes, ins.value);
    else if (ins.op === 'load') load(ins.array);
    else throw new InternalError(`a ${ins.op} cannot be hoisted`);
    ctx.f.op('local.set', at(vals, v, 'value'));
  });
}

/** Emits the SSA body once: values into `vals`, loads (by `load`, which pushes array k's value) and stores through `cur`. */
function emitBody(
  ctx: EmitContext, spec: KernelSpec, vals: readonly Local[], cur: readonly Local[],
  load: (array: number) => void, value: (ins: KInstr) => void,
  reduce: (r: ReduceInstr, slotIndex: number) => void, store: (array: number) => void,
  hoisted: (ins: KInstr) => boolean = () => false,
  scan: (x: ScanInstr, scanIndex: number) => void = () => { throw new InternalError('a scan outside the scalar loop'); },
  gather: (g: GatherInstr) => void = () => { throw new InternalError('a gather outside the scalar loop'); },
): void {
  const f = ctx.f;
  let reduceIndex = 0;
  let scanIndex = 0;
  spec.body.forEach((ins, v) => {
    switch (ins.op) {
      case 'load':
        if (hoisted(ins)) break;
        load(ins.array);
        f.op('local.set', at(vals, v, 'value'));
        break;
      case 'store':
        f.op('local.get', at(cur, ins.array, 'array pointer')).op('local.get', at(vals, ins.arg, 'value'));
        store(ins.array);
        break;
      case 'reduce':
        reduce(ins, reduceIndex++);
        break;
      case 'scan':
        scan(ins, scanIndex++);
        f.op('local.set', at(vals, v, 'value'));
        break;
      case 'gather':
        gather(ins);
        f.op('local.set', at(vals, v, 'value'));
        break;
      default:
        if (hoisted(ins)) break;
        value(ins);
        f.op('local.set', at(vals, v, 'value'));
    }
  });
}

export { randomKeys, loop, bump, stepLoop, blockLoop, blockRangeLoop, rangeLoop, piecePartialAddress, valueLocals, scalarLoop, emitVectorStep, emitHoisted, emitBody };
export type { ReduceInstr, ScanInstr, ValueLocals, VectorStep };
