// Scans along lines longer than a block, a group of blocks at a time.
//
// Chains: a scan's running value waits on the element before it (an add's
// latency per element, about three times a streaming loop's cost). Where each
// block is a piece of its own, SCAN_CHAINS consecutive blocks are independent
// chains: one loop takes an element of each in turn, so their additions
// overlap. Each piece still accumulates in element order from its starting
// value, so the bits are those of one block at a time.
//
// Look-back: a piece's starting value is the running value before it. A scan
// kernel without host functions finds it in the same launch, reading its data
// once: the claim loop hands out groups of blocks in order; a group first
// totals its blocks (the data then sits in this core's caches), waits until
// the group before it has published the running value at its end, publishes
// its own (the value before the group, combined with its totals in block
// order), and then scans its blocks from the caches. A group waits only on
// groups claimed before it, which their threads are running, so the launch
// ends; a failed launch (a trap, or a worker that died, which the calling
// thread sees as it waits, never itself running such a launch's blocks)
// stops the claims, and a waiting group then gives up. The starting values
// depend on the blocks alone, never on which thread ran which group: the
// same bits on any number of workers.
//
// Both need each block to be one piece of a line longer than a block: the
// line is the whole space, or lines are whole numbers of blocks. Other
// launches take the row kernel's way, with the starting values the launch
// gives (the identity, or from a totals launch before).
import type { Local } from '../encode/index.js';
import { at } from '../internal-error.js';
import { ARGS, CLAIMS_STOPPED, arrayPtrOffset, arrayStrideOffset } from './args-layout.js';
import { scalarType } from './context.js';
import type { EmitContext } from './context.js';
import { emitBody, loop, bump, piecePartialAddress } from './emit-loops.js';
import { loadArg } from './emit-values.js';
import type { ScanInstr } from './emit-loops.js';
import { KTYPE_BYTES } from './kernel-spec.js';
import type { KernelSpec } from './kernel-spec.js';
import { combineScalar, fromF64, identity, toF64 } from './reduce-ops.js';
import { emitConst, emitLoad, emitScalarInstr, emitStore } from './scalar-ops.js';
import type { Lanes } from './simd-widths.js';

/** Blocks chained at once, and so the blocks a claim takes: enough independent additions to hide an add's latency. */
const SCAN_CHAINS = 4;

/**
 * Whether a kernel's scans run in groups of blocks: a one-axis row kernel with
 * scans and no vector lanes, reductions, gathers or random arrays (whose
 * element addresses are not a pointer stepped along the block).
 */
function chainsScans(spec: KernelSpec, lanes: Lanes | undefined): boolean {
  if (spec.ndim !== 1 || lanes !== undefined || spec.mode === 'columns' || spec.contraction || spec.temps) return false;
  if (!spec.body.some((ins) => ins.op === 'scan') || spec.arrays.some((a) => a.random || a.gathered)) return false;
  // A scan of a scan's value has no totals of its own before the first scan has run.
  const after = afterScan(spec);
  return spec.body.every((ins, v) => ins.op !== 'reduce' && ins.op !== 'gather' && !(ins.op === 'scan' && after.has(v)));
}


/** The row kernel's locals the groups read: the space's size, the block size and the reduced run's length. */
interface ChainLocals {
  readonly total: Local;
  readonly bs: Local;
  readonly seg: Local;
  /** The body's scalar value locals. */
  readonly values: readonly Local[];
}

/** What the group's pieces share. */
interface Group {
  readonly ctx: EmitContext;
  readonly spec: KernelSpec;
  readonly k: ChainLocals;
  readonly scans: readonly ScanInstr[];
  readonly types: readonly ScanInstr['type'][];
  /** Per chain u, its running value (scan) or total (look-back) per scan. */
  readonly acc: readonly (readonly Local[])[];
  /** Per chain u, each array's pointer. */
  readonly ptr: readonly (readonly Local[])[];
  readonly stride: readonly Local[];
  readonly begin: Local; readonly end: Local;
  readonly j: Local; readonly len: Local; readonly b: Local;
  /** Instructions the totals skip: stores, and what is computed from a scan's value. */
  readonly afterScan: ReadonlySet<number>;
  /** The arrays the totals read. */
  readonly totalsRead: ReadonlySet<number>;
  /** Elements of each chain a chained loop takes at a time. */
  readonly step: number;
}

/**
 * Runs blocks [blockBegin, blockEnd) in groups of SCAN_CHAINS from
 * blockBegin, in order (a claim hands out one group; a longer range, as from
 * launch() on the calling thread alone, is taken group by group): each as
 * emitScanGroup can, then `blocks(first, end)` for the group's blocks it left.
 */
function emitScanGroups(ctx: EmitContext, spec: KernelSpec, k: ChainLocals, blockBegin: Local, blockEnd: Local, lookBack: boolean,
  blocks: (first: Local, end: Local) => void): void {
  const f = ctx.f;
  const [from, to, first] = [f.local('i32'), f.local('i32'), f.local('i32')];
  f.op('local.get', blockBegin).op('local.set', from);
  loop(f, () => { f.op('local.get', from).op('local.get', blockEnd).op('i32.ge_u'); }, () => {
    f.op('local.get', from).op('i32.const', SCAN_CHAINS).op('i32.add').op('local.tee', to).op('local.get', blockEnd)
      .op('local.get', to).op('local.get', blockEnd).op('i32.lt_u').op('select').op('local.set', to);
    emitScanGroup(ctx, spec, k, from, to, first, lookBack);
    blocks(first, to);
    f.op('local.get', to).op('local.set', from);
  });
}

/**
 * Runs the group [blockBegin, blockEnd) where each block is one
 * piece: with `lookBack`, its starting values found as above; chained where
 * the group is SCAN_CHAINS full blocks. `from` is set to the first block not
 * run (blockBegin, or blockEnd), for the row kernel's block loop.
 */
function emitScanGroup(ctx: EmitContext, spec: KernelSpec, k: ChainLocals, blockBegin: Local, blockEnd: Local, from: Local, lookBack: boolean): void {
  const f = ctx.f;
  const i32 = (): Local => f.local('i32');
  const scans = spec.body.filter((ins): ins is ScanInstr => ins.op === 'scan');
  const after = afterScan(spec);
  const g: Group = {
    ctx, spec, k, scans, types: spec.body.map((ins) => ins.type),
    acc: Array.from({ length: SCAN_CHAINS }, () => scans.map((x) => f.local(scalarType(x.type)))),
    ptr: Array.from({ length: SCAN_CHAINS }, () => spec.arrays.map(i32)),
    stride: spec.arrays.map(i32),
    begin: blockBegin, end: blockEnd, j: i32(), len: i32(), b: i32(),
    afterScan: after,
    totalsRead: new Set(spec.body.flatMap((ins, v) => (ins.op === 'load' && !after.has(v) ? [ins.array] : []))),
    step: spec.arrays.every((a) => a.inner !== 'strided') ? CHAIN_STEP : 1,
  };
  const [full, chained, ready] = [i32(), i32(), i32()];

  f.op('local.get', blockBegin).op('local.set', from);
  f.op('local.get', k.seg).op('local.get', k.total).op('i32.eq');
  f.op('local.get', k.seg).op('local.get', k.bs).op('i32.rem_u').op('i32.eqz').op('i32.or').if();
  spec.arrays.forEach((a, n) => {
    loadArg(ctx, arrayStrideOffset(1, n, 0));
    f.op('i32.const', KTYPE_BYTES[a.dtype]).op('i32.mul').op('local.set', at(g.stride, n, 'array stride'));
  });
  // chained = the group is SCAN_CHAINS blocks, all full (of a multiple of the step).
  f.op('local.get', k.total).op('local.get', k.bs).op('i32.div_u').op('local.set', full);
  f.op('local.get', blockEnd).op('local.get', blockBegin).op('i32.sub').op('i32.const', SCAN_CHAINS).op('i32.eq');
  f.op('local.get', blockEnd).op('local.get', full).op('i32.le_u').op('i32.and');
  if (g.step > 1) f.op('local.get', k.bs).op('i32.const', g.step - 1).op('i32.and').op('i32.eqz').op('i32.and');
  f.op('local.set', chained);
  if (lookBack) {
    // Lines no longer than a block start from the identity in every block: nothing to look back for.
    f.op('local.get', k.seg).op('local.get', k.bs).op('i32.gt_u').if();
    // ready = &ready words[0]: after the (blocks + 1) starting values of each slot; blocks = (total - 1) / bs + 1.
    loadArg(ctx, ARGS.partials);
    f.op('local.get', k.total).op('i32.const', 1).op('i32.sub').op('local.get', k.bs).op('i32.div_u').op('i32.const', 1).op('i32.add')
      .op('i32.const', 1).op('i32.add').op('i32.const', spec.slots * 8).op('i32.mul').op('i32.add').op('local.set', ready);
    emitTotals(g, chained);
    awaitGroupBefore(g, ready);
    publishStarts(g, ready);
    f.end();
  }
  f.op('local.get', chained).if();
  setChainPointers(g, SCAN_CHAINS);
  emitStarts(g);
  chainLoop(g, SCAN_CHAINS, () => { f.op('local.get', k.bs); }, (u, j) => { scanBody(g, u, j); }, g.step);
  f.op('local.get', blockEnd).op('local.set', from);
  f.end();
  f.end();
}

/** The instructions the totals skip: stores, and every value computed from a scan's value. */
function afterScan(spec: KernelSpec): Set<number> {
  const skip = new Set<number>();
  spec.body.forEach((ins, v) => {
    const args = ins.op === 'unary' || ins.op === 'cast' || ins.op === 'store' || ins.op === 'scan' ? [ins.arg]
      : ins.op === 'binary' || ins.op === 'select' ? [...ins.args] : [];
    if (ins.op === 'store' || args.some((a) => skip.has(a) || spec.body[a]?.op === 'scan')) skip.add(v);
  });
  return skip;
}

/** Chain `chain`'s pointers at the start of the block `block()` pushes. */
function setPointers(g: Group, chain: number, block: () => void): void {
  g.spec.arrays.forEach((_, n) => {
    loadArg(g.ctx, arrayPtrOffset(1, n));
    block();
    g.ctx.f.op('local.get', g.k.bs).op('i32.mul').op('local.get', at(g.stride, n, 'array stride')).op('i32.mul').op('i32.add')
      .op('local.set', at(at(g.ptr, chain, 'chain'), n, 'pointer'));
  });
}

/** Pushes begin + u. */
const groupBlock = (g: Group, u: number) => (): void => { g.ctx.f.op('local.get', g.begin).op('i32.const', u).op('i32.add'); };

/** Chain u's pointers at the start of block begin + u, for chains [0, chains). */
function setChainPointers(g: Group, chains: number): void {
  for (let u = 0; u < chains; u++) setPointers(g, u, groupBlock(g, u));
}

/** Pushes the address of the starting value of `slot` of the block `block()` pushes (each block is one piece). */
function startAddress(g: Group, block: () => void, slot: number): void {
  piecePartialAddress(g.ctx, g.spec.slots, block, slot);
}

/** into = block (begin + u)'s starting value of scan x. */
function loadStart(g: Group, u: number, x: ScanInstr, into: Local): void {
  startAddress(g, groupBlock(g, u), x.slot);
  g.ctx.f.mem('f64.load', { align: 0 });
  fromF64(g.ctx.f, x.type, true);
  g.ctx.f.op('local.set', into);
}

/** Each chain's running values from its block's starting values. */
function emitStarts(g: Group): void {
  for (let u = 0; u < SCAN_CHAINS; u++) g.scans.forEach((x, s) => { loadStart(g, u, x, at(at(g.acc, u, 'chain'), s, 'scan')); });
}

/**
 * `len()` elements of each of chains [0, chains), `step` elements of each in
 * turn (body(u, k): chain u's element k of the step), then the pointers of
 * the arrays `moving` says stepped. `step` > 1 needs every array contiguous
 * or broadcast (its elements then lie at fixed offsets) and len a multiple.
 */
function chainLoop(g: Group, chains: number, len: () => void, body: (u: number, k: number) => void, step = 1, moving: (n: number) => boolean = () => true): void {
  const f = g.ctx.f;
  f.op('i32.const', 0).op('local.set', g.j);
  loop(f, () => { f.op('local.get', g.j); len(); f.op('i32.ge_u'); }, () => {
    for (let k = 0; k < step; k++) for (let u = 0; u < chains; u++) body(u, k);
    for (const cur of g.ptr.slice(0, chains)) {
      g.spec.arrays.forEach((a, n) => {
        if (a.inner === 'broadcast' || !moving(n)) return;
        const p = at(cur, n, 'pointer');
        f.op('local.get', p);
        if (step === 1) f.op('local.get', at(g.stride, n, 'array stride'));
        else f.op('i32.const', step * KTYPE_BYTES[a.dtype]);
        f.op('i32.add').op('local.set', p);
      });
    }
    bump(f, g.j, step);
  });
}

/** Elements a chained loop takes of each chain at a time, where every array is contiguous or broadcast: fewer pointer steps. */
const CHAIN_STEP = 2;

/** Byte offset of array n's element k of a step from its pointer. */
const stepOffset = (g: Group, n: number, k: number): number => {
  const a = at(g.spec.arrays, n, 'array');
  return a.inner === 'contiguous' ? k * KTYPE_BYTES[a.dtype] : 0;
};

/** The body for chain u's element k of the step: its scans go on from the chain's running values. */
function scanBody(g: Group, u: number, k: number): void {
  const f = g.ctx.f;
  const cur = at(g.ptr, u, 'chain');
  emitBody(g.ctx, g.spec, g.k.values, cur, (n) => {
    f.op('local.get', at(cur, n, 'pointer'));
    emitLoad(g.ctx, at(g.spec.arrays, n, 'array').dtype, stepOffset(g, n, k));
  }, (ins) => emitScalarInstr(g.ctx, ins, g.k.values, g.types), () => {}, (n) => { emitStore(g.ctx, at(g.spec.arrays, n, 'array').dtype, stepOffset(g, n, k)); },
  undefined, (x, s) => {
    const a = at(at(g.acc, u, 'chain'), s, 'scan');
    combineScalar(f, x.fn, x.type, a, at(g.k.values, x.arg, 'value'));
    f.op('local.get', a);
  });
}

/**
 * The body up to the scans for element k of the step through the pointers
 * `cur`, each scan's value added into `totals`; nothing stored.
 */
function totalsBody(g: Group, cur: readonly Local[], totals: readonly Local[], k: number): void {
  const f = g.ctx.f;
  // The scan pass computes these values again and counts their conditions (a division by zero, an invalid cast).
  const ctx: EmitContext = { ...g.ctx, quiet: true };
  let s = 0;
  g.spec.body.forEach((ins, v) => {
    if (g.afterScan.has(v)) return;
    if (ins.op === 'scan') {
      combineScalar(f, ins.fn, ins.type, at(totals, s++, 'scan'), at(g.k.values, ins.arg, 'value'));
      return;
    }
    if (ins.op === 'load') {
      f.op('local.get', at(cur, ins.array, 'pointer'));
      emitLoad(ctx, at(g.spec.arrays, ins.array, 'array').dtype, stepOffset(g, ins.array, k));
    } else {
      emitScalarInstr(ctx, ins, g.k.values, g.types);
    }
    f.op('local.set', at(g.k.values, v, 'value'));
  });
}

/** Each block's totals from the identity, in element order: chained over a full group, else block by block (a group cut short by the space). */
function emitTotals(g: Group, chained: Local): void {
  const f = g.ctx.f;
  const fromIdentity = (u: number): void => {
    g.scans.forEach((x, s) => { emitConst(g.ctx, x.type, identity(x.fn, x.type)); f.op('local.set', at(at(g.acc, u, 'chain'), s, 'scan')); });
  };
  f.op('local.get', chained).if();
  setChainPointers(g, SCAN_CHAINS);
  for (let u = 0; u < SCAN_CHAINS; u++) fromIdentity(u);
  chainLoop(g, SCAN_CHAINS, () => { f.op('local.get', g.k.bs); }, (u, k) => { totalsBody(g, at(g.ptr, u, 'chain'), at(g.acc, u, 'chain'), k); },
    g.step, (n) => g.totalsRead.has(n));
  f.else();
  for (let u = 0; u < SCAN_CHAINS; u++) {
    fromIdentity(u);
    // Block begin + u, where the group has it: its elements [b * bs, min((b + 1) * bs, total)).
    f.op('local.get', g.begin).op('i32.const', u).op('i32.add').op('local.tee', g.b).op('local.get', g.end).op('i32.lt_u').if();
    f.op('local.get', g.k.total).op('local.get', g.b).op('local.get', g.k.bs).op('i32.mul').op('i32.sub').op('local.tee', g.len);
    f.op('local.get', g.k.bs).op('local.get', g.len).op('local.get', g.k.bs).op('i32.lt_u').op('select').op('local.set', g.len);
    // Chain 0's pointers walk the block; chain u's totals take its values.
    setPointers(g, 0, () => { f.op('local.get', g.b); });
    chainLoop(g, 1, () => { f.op('local.get', g.len); }, () => { totalsBody(g, at(g.ptr, 0, 'chain'), at(g.acc, u, 'chain'), 0); }, 1, (n) => g.totalsRead.has(n));
    f.end();
  }
  f.end();
}

/** Spins of a thread waiting for the group before its own, before it sleeps on the ready word. */
const SPINS = 1024;
/** The longest sleep on a ready word (ns) before the thread looks at the launch's claims again. */
const SLEEP_NS = 1_000_000n;

/**
 * Waits until the ready word of block `begin` is set: the running value
 * before the group is published. Gives up (returns from the kernel) once the
 * launch's claims are stopped: a failed launch publishes nothing more. After
 * a short spin it sleeps on the word (the publisher notifies): where threads
 * outnumber free cores, the thread that holds the group before may be the
 * one a spinning waiter keeps off its core, and a spin then lasts the
 * scheduler's time slice. Only a worker ever waits (a launch on the calling
 * thread alone runs its groups in order), so the sleep never blocks a
 * browser's main thread.
 */
function awaitGroupBefore(g: Group, ready: Local): void {
  const f = g.ctx.f;
  const spins = f.local('i32');
  const readyAt = (): void => { f.op('local.get', ready).op('local.get', g.begin).op('i32.const', 4).op('i32.mul').op('i32.add'); };
  f.op('i32.const', 0).op('local.set', spins);
  f.block().loop();
  readyAt();
  f.mem('i32.atomic.load').op('br_if', 1);
  f.op('local.get', g.ctx.args).mem('i32.atomic.load', { offset: ARGS.claim }).op('i32.const', CLAIMS_STOPPED).op('i32.ge_u').if();
  f.op('return');
  f.end();
  f.op('local.get', spins).op('i32.const', 1).op('i32.add').op('local.tee', spins).op('i32.const', SPINS).op('i32.gt_u').if();
  readyAt();
  f.op('i32.const', 0).op('i64.const', SLEEP_NS).mem('memory.atomic.wait32').op('drop');
  f.end();
  f.op('br', 0).end().end();
}

/**
 * Each block's starting value from the one before the group and the totals,
 * in block order (the identity where a block starts a line), then the value
 * after the group, published with the next block's ready word.
 */
function publishStarts(g: Group, ready: Local): void {
  const f = g.ctx.f;
  const run = g.scans.map((x) => f.local(scalarType(x.type)));
  g.scans.forEach((x, s) => { loadStart(g, 0, x, at(run, s, 'running value')); });
  for (let u = 0; u < SCAN_CHAINS; u++) {
    f.op('local.get', g.begin).op('i32.const', u).op('i32.add').op('local.tee', g.b).op('local.get', g.end).op('i32.lt_u').if();
    // A block at a line's start starts from the identity.
    f.op('local.get', g.b).op('local.get', g.k.bs).op('i32.mul').op('local.get', g.k.seg).op('i32.rem_u').op('i32.eqz').if();
    g.scans.forEach((x, s) => { emitConst(g.ctx, x.type, identity(x.fn, x.type)); f.op('local.set', at(run, s, 'running value')); });
    f.end();
    g.scans.forEach((x, s) => {
      const r = at(run, s, 'running value');
      startAddress(g, groupBlock(g, u), x.slot);
      f.op('local.get', r);
      toF64(f, x.type);
      f.mem('f64.store', { align: 0 });
      combineScalar(f, x.fn, x.type, r, at(at(g.acc, u, 'chain'), s, 'scan'));
    });
    f.end();
  }
  // The value after the group is the next block's start: stored, then its ready word set.
  g.scans.forEach((x, s) => {
    startAddress(g, () => { f.op('local.get', g.end); }, x.slot);
    f.op('local.get', at(run, s, 'running value'));
    toF64(f, x.type);
    f.mem('f64.store', { align: 0 });
  });
  f.op('local.get', ready).op('local.get', g.end).op('i32.const', 4).op('i32.mul').op('i32.add').op('i32.const', 1)
    .mem('i32.atomic.store');
  // The group after may be asleep on that word (awaitGroupBefore).
  f.op('local.get', ready).op('local.get', g.end).op('i32.const', 4).op('i32.mul').op('i32.add').op('i32.const', 1)
    .mem('memory.atomic.notify').op('drop');
}

export { SCAN_CHAINS, chainsScans, emitScanGroups };
