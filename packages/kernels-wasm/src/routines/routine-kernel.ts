// What the routine modules that run on the pool share (the sorting module's
// kernel, the scatter module's count): a launch block whose words after the
// header (ARGS.shape on) start with a scratch area of `slots` parts, the
// claim loop that takes a part by an atomic add on the slot counter and
// then blocks until none are left (as a generated kernel's, lower/compile.ts),
// the job that writes the block for the calling thread or a pool, and the
// sequence a routine of several launches hands them out by (one long line's
// sort: a launch a pass, with the host's work between).
import type { ModuleBuilder } from '../encode/module-builder.js';
import type { FunctionBuilder, Local } from '../encode/function-builder.js';
import { ARGS } from '../lower/args-layout.js';
import { instantiate, runBlocks } from '../lower/launch.js';
import type { HeapLike, HostModule, KernelModule } from '../lower/launch.js';
import { isSharedBuffer } from '../support.js';
import { routineModule } from './instances.js';

/** The words every routine launch starts with (byte offsets after the header); a routine's own follow from ROUTINE_WORDS. */
const ROUTINE_ARGS = {
  /** The scratch area: `slots` parts of `perThread` bytes, and the counter threads take them by. */
  scratch: 0,
  perThread: 4,
  slot: 8,
  slots: 12,
} as const;
const ROUTINE_WORDS = 16;

/**
 * claim(args, blocks) -> ran: takes a part of the scratch, then blocks one
 * at a time with an atomic add on the launch's claim word until none are
 * left, calling kernel(args, b, b + 1, part) for each.
 */
function emitClaim(m: ModuleBuilder, kernel: number): void {
  const [, f] = m.func('claim', ['i32', 'i32'], ['i32']);
  const [args, blocks] = [f.param(0), f.param(1)];
  const [b, ran, scratch, slot] = [f.local('i32'), f.local('i32'), f.local('i32'), f.local('i32')];
  const word = (offset: number): void => { f.op('local.get', args).mem('i32.load', { offset: ARGS.shape + offset }); };
  // A part of the scratch of its own, or no block: a thread past the parts (a pool larger than the
  // launch was made for) leaves the blocks to the others. Claims of a later round of the pool come
  // only where no thread has claimed, so the parts are all still free then.
  f.op('local.get', args).op('i32.const', 1).mem('i32.atomic.rmw.add', { offset: ARGS.shape + ROUTINE_ARGS.slot }).op('local.tee', slot);
  word(ROUTINE_ARGS.slots);
  f.op('i32.ge_u');
  f.if().op('i32.const', 0).op('return').end();
  word(ROUTINE_ARGS.scratch);
  f.op('local.get', slot);
  word(ROUTINE_ARGS.perThread);
  f.op('i32.mul').op('i32.add').op('local.set', scratch);
  f.block().loop();
  f.op('local.get', args).op('i32.const', 1).mem('i32.atomic.rmw.add', { offset: ARGS.claim }).op('local.tee', b);
  f.op('local.get', blocks).op('i32.ge_u').op('br_if', 1);
  f.op('local.get', args).op('local.get', b).op('local.get', b).op('i32.const', 1).op('i32.add').op('local.get', scratch).op('call', kernel);
  f.op('local.get', ran).op('i32.const', 1).op('i32.add').op('local.set', ran);
  f.op('br', 0).end().end();
  f.op('local.get', ran);
}

/** Pushes the routine's own word at `offset` (from ROUTINE_WORDS) of the launch block at args. */
const routineWord = (f: FunctionBuilder, args: Local) => (offset: number): void => {
  f.op('local.get', args).mem('i32.load', { offset: ARGS.shape + ROUTINE_WORDS + offset });
};

/**
 * lo = first * per; hi = min(end * per, total): the items of blocks
 * [first, end), `per` a block and `total` in all (`first`, `end`, `per` and
 * `total` push their values).
 */
function emitSpan(f: FunctionBuilder, first: () => void, end: () => void, per: () => void, total: () => void, lo: Local, hi: Local): void {
  first();
  per();
  f.op('i32.mul').op('local.set', lo);
  end();
  per();
  f.op('i32.mul').op('local.tee', hi);
  total();
  f.op('local.get', hi);
  total();
  f.op('i32.lt_u').op('select').op('local.set', hi);
}

/** A launch of a routine module's kernel, ready for the calling thread or a pool. */
interface RoutineJob {
  /** The routine module, as a pool sends it to a worker that lacks it. */
  readonly module: KernelModule & { readonly bytes: Uint8Array };
  readonly argsPtr: number;
  readonly blocks: number;
  /** Elements the launch works over. */
  readonly elements: number;
  /** The scratch area: `slots` parts of `perThread` bytes. */
  readonly scratch: number;
  readonly slots: number;
  readonly perThread: number;
  /** Runs the blocks left on the calling thread (claiming them, as a pool's threads do). */
  runHere(): void;
  /** Gives the launch block, the scratch and the rest the launch holds back to the heap (after the launch). */
  release(): void;
}

/**
 * A routine made of launches with the host's work between them (one long
 * line's sort: a launch a pass), or of one launch.
 */
interface RoutineSequence {
  /** The next launch, made once the one before has run (the host's work between them done here); undefined once the routine is done. */
  next(): RoutineJob | undefined;
  /** Gives back everything the routine holds, its launches' blocks included (after its last launch, or on the way when a run fails). */
  release(): void;
}

/** The sequence of one launch. */
function onlyLaunch(job: RoutineJob): RoutineSequence {
  let given = false;
  return {
    next: () => {
      if (given) return undefined;
      given = true;
      return job;
    },
    release: () => { job.release(); },
  };
}

/** What routineJob writes: the module, its blocks, the scratch a thread needs, and the routine's own words. */
interface RoutineLaunchWords {
  readonly name: string;
  readonly build: (shared: boolean) => Uint8Array<ArrayBuffer>;
  /** The module's ids as a kernel module, unshared and shared: negative, never a compiled kernel's. */
  readonly ids: readonly [number, number];
  readonly blocks: number;
  readonly elements: number;
  /** Threads that may run the launch at once: min(threads, blocks) parts are made. */
  readonly threads: number;
  readonly perThread: number;
  /** Bytes of the routine's own words after ROUTINE_WORDS. */
  readonly wordBytes: number;
  /** Writes the routine's words (`at(offset, value)`, offsets from ROUTINE_WORDS) and takes blocks of its own with `alloc`, freed with the launch. */
  readonly write: (at: (offset: number, value: number) => void, alloc: (bytes: number) => number) => void;
}

/** The routine modules import no host function. */
const NO_HOST: HostModule = {
  hostFunction: (key) => {
    throw new Error(`internal: a routine module imports no host function (asked for ${key})`);
  },
};

function routineJob(heap: HeapLike, w: RoutineLaunchWords): RoutineJob {
  const slots = Math.max(1, Math.min(w.threads, w.blocks));
  const held: number[] = [];
  const alloc = (bytes: number): number => {
    const p = heap.alloc(Math.max(16, bytes));
    held.push(p);
    return p;
  };
  try {
    const bytes = ARGS.shape + ROUTINE_WORDS + w.wordBytes;
    const argsPtr = alloc(bytes);
    const scratch = alloc(slots * w.perThread);
    const at = (offset: number, value: number): void => { new Int32Array(heap.memory.buffer, argsPtr + ARGS.shape + offset, 1)[0] = value; };
    new Uint8Array(heap.memory.buffer, argsPtr, bytes).fill(0);
    at(ROUTINE_ARGS.scratch, scratch);
    at(ROUTINE_ARGS.perThread, w.perThread);
    at(ROUTINE_ARGS.slots, slots);
    w.write((offset, value) => { at(ROUTINE_WORDS + offset, value); }, alloc);
    const shared = isSharedBuffer(heap.memory.buffer);
    const { bytes: wasm, module } = routineModule(w.name, w.build, shared);
    const kernelModule = { hash: `routine:${w.name}:${shared ? 'shared' : 'unshared'}`, id: w.ids[shared ? 1 : 0], module, hostKeys: [], bytes: wasm };
    return {
      module: kernelModule, argsPtr, blocks: w.blocks, elements: w.elements, scratch, slots, perThread: w.perThread,
      runHere: () => { runBlocks(instantiate(kernelModule, heap.memory, NO_HOST), heap.memory, argsPtr, w.blocks); },
      release: () => { for (const p of held.splice(0)) heap.free(p); },
    };
  } catch (e) {
    for (const p of held.splice(0)) heap.free(p);
    throw e;
  }
}

export { ROUTINE_ARGS, ROUTINE_WORDS, emitClaim, emitSpan, onlyLaunch, routineJob, routineWord };
export type { RoutineJob, RoutineSequence };
