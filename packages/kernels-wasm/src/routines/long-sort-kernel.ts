// One long line sorted by the pool: the radix sort's passes (radix-module.ts)
// each split into blocks of the line, every block counting its own digits
// and scattering its keys to places the host worked out from all blocks'
// counts (long-sort-job.ts). The places of digit d in block b start after
// every key of a smaller digit and every key of digit d in an earlier block,
// so each pass is as stable as the one-thread pass and the sorted line is the
// same, whichever thread ran which block.
//
// Steps, each a launch over the blocks (LONG_ARGS.step):
// - KEYS: the line's keys, the zeros and NaNs a block holds, every pass's
//   digit counts of the block (which digits the whole line shares, and the
//   first pass's places), and the positions 0..n-1 where asked;
// - COUNT: one pass's digit counts of each block, the keys as the passes
//   before left them;
// - SCATTER: one pass, each block's keys (and positions) to their places;
// - OUT: the values from the sorted keys, or the positions copied to the
//   destination.
import type { ModuleBuilder } from '../encode/module-builder.js';
import type { FunctionBuilder, Local } from '../encode/function-builder.js';
import { ZERO, forUp } from './emit-loops.js';
import { keyBits } from './radix-keys.js';
import type { KeyKind } from './radix-keys.js';
import { TABLE, inChunks, passesOf } from './radix-layout.js';
import { emitSpan, routineWord } from './routine-kernel.js';

/** The digit a long sort's passes use: its lines are long enough to repay the 11-bit tables. */
const LONG_DIGIT = 11;

/** The long sort's launch words (byte offsets from ROUTINE_WORDS; op where the sorting kernel reads it). */
const LONG_ARGS = {
  op: 0,
  step: 4,
  n: 8,
  /** Elements a block (the last fewer). */
  block: 12,
  /** KEYS: the line's values; COUNT, SCATTER, OUT: the keys. */
  src: 16,
  /** KEYS: the keys; SCATTER: the keys' next places; OUT: the destination. */
  dst: 20,
  /** SCATTER: the positions read; OUT: the positions copied. */
  srcIdx: 24,
  /** KEYS: the positions 0..n-1 written (0: none); SCATTER: the positions' next places. */
  dstIdx: 28,
  /** Each block's tables: every pass's TABLE counts, `tableStride` bytes from a block's to the next. */
  tables: 32,
  tableStride: 36,
  pass: 40,
  /** Each block's 16 bytes of zeros' and NaNs' counts (emitKeys' res). */
  res: 44,
} as const;
const LONG_WORDS_BYTES = 48;

const LONG_STEPS = { keys: 0, count: 1, scatter: 2, out: 3 } as const;

/** Bytes of one block's tables: every pass of a key width. */
const tableBytes = (width: 32 | 64): number => passesOf(width, LONG_DIGIT) * TABLE * 4;

/** What a long sort's block function calls, for one kind and output. */
interface LongFunctions {
  readonly keys: number;
  readonly values: number;
  /** count<width>_11(keys, i0, i1, counts): every pass's digit counts. */
  readonly countAll: number;
  /** count_pass<width>(keys, i0, i1, table, shift): one pass's. */
  readonly countPass: number;
  /** scatter<width>_11[_idx]. */
  readonly scatter: number;
}

/**
 * block_offsets(table, blocks, stride, n, totals, make) -> i32: returns 1
 * where one digit holds all n keys of one pass's digit counts of every block
 * (block b's at table + b * stride): the pass would move nothing. Else, with
 * `make`, turns the counts into the place each block's first key of each
 * digit goes, digits in order and blocks in order within a digit, and
 * returns 0. `totals`: TABLE i32s of scratch. Called by the host between
 * launches; it walks each block's table in order (the digits' totals, then
 * the places), since a walk down the blocks, a digit at a time, would touch
 * a page a count.
 */
function emitBlockOffsets(m: ModuleBuilder): void {
  const [, f] = m.func('block_offsets', ['i32', 'i32', 'i32', 'i32', 'i32', 'i32'], ['i32']);
  const [table, blocks, stride, n, totals, make] = [f.param(0), f.param(1), f.param(2), f.param(3), f.param(4), f.param(5)];
  const [d, b, row, sum, c, end] = [f.local('i32'), f.local('i32'), f.local('i32'), f.local('i32'), f.local('i32'), f.local('i32')];
  const cell = (base: Local): void => { f.op('local.get', base).op('local.get', d).op('i32.const', 2).op('i32.shl').op('i32.add'); };
  /** for each block b: row = its table; for each fourth digit d: body() (on digits d..d+3, as i32x4) */
  const eachCount = (body: () => void): void => {
    forUp(f, b, ZERO, blocks, () => {
      f.op('local.get', table).op('local.get', b).op('local.get', stride).op('i32.mul').op('i32.add').op('local.set', row);
      f.op('i32.const', 0).op('local.set', d);
      f.block().loop();
      f.op('local.get', d).op('local.get', end).op('i32.ge_u').op('br_if', 1);
      body();
      f.op('local.get', d).op('i32.const', 4).op('i32.add').op('local.set', d).op('br', 0);
      f.end().end();
    });
  };
  const four = f.local('v128');
  f.op('i32.const', TABLE).op('local.set', end);
  f.op('local.get', totals).op('i32.const', 0).op('i32.const', TABLE * 4).op('memory.fill');
  eachCount(() => {
    cell(totals);
    cell(totals);
    f.mem('v128.load');
    cell(row);
    f.mem('v128.load').op('i32x4.add').mem('v128.store');
  });
  // Each digit's first place, and the pass skipped where one digit holds every key.
  forUp(f, d, ZERO, end, () => {
    cell(totals);
    f.mem('i32.load').op('local.tee', c).op('local.get', n).op('i32.eq');
    f.if().op('i32.const', 1).op('return').end();
    cell(totals);
    f.op('local.get', sum).mem('i32.store');
    f.op('local.get', sum).op('local.get', c).op('i32.add').op('local.set', sum);
  });
  f.op('local.get', make).op('i32.eqz').if().op('i32.const', 0).op('return').end();
  eachCount(() => {
    cell(row);
    f.mem('v128.load').op('local.set', four);
    cell(row);
    cell(totals);
    f.mem('v128.load').mem('v128.store');
    cell(totals);
    cell(totals);
    f.mem('v128.load').op('local.get', four).op('i32x4.add').mem('v128.store');
  });
  f.op('i32.const', 0);
}

/**
 * long_block_<kind>[_idx](args, i0, i1, b): the launch's step (LONG_STEPS)
 * on elements [i0, i1), block b of the line.
 */
function emitLongBlock(m: ModuleBuilder, kind: KeyKind, positions: boolean, fns: LongFunctions): number {
  const width = keyBits(kind);
  const [index, f] = m.func(`long_block_${kind.name}${positions ? '_idx' : ''}`, ['i32', 'i32', 'i32', 'i32'], [], false);
  const [args, i0, i1, b] = [f.param(0), f.param(1), f.param(2), f.param(3)];
  const [step, table, res, i, c0, c1] = [f.local('i32'), f.local('i32'), f.local('i32'), f.local('i32'), f.local('i32'), f.local('i32')];
  const word = routineWord(f, args);
  /**
   * call() over [i0, i1) in spans of CHUNK (c0, c1 the span): V8 moves a
   * function to its optimised code between calls, so a block's first call
   * would otherwise run all of it in the baseline tier.
   */
  const spans = (call: () => void): void => { inChunks(f, i1, c0, c1, call, i0); };
  const is = (s: number): void => { f.op('local.get', step).op('i32.const', s).op('i32.eq'); };
  const span = (base: () => void, bytes: number): void => {
    base();
    f.op('local.get', i0).op('i32.const', Math.log2(bytes)).op('i32.shl').op('i32.add');
  };
  const count = (): void => { f.op('local.get', i1).op('local.get', i0).op('i32.sub'); };
  /** The pass's shift, in bits. */
  const shift = (): void => { word(LONG_ARGS.pass); f.op('i32.const', LONG_DIGIT).op('i32.mul'); };
  word(LONG_ARGS.step);
  f.op('local.set', step);
  // This block's tables, and for COUNT and SCATTER the pass's among them.
  word(LONG_ARGS.tables);
  f.op('local.get', b);
  word(LONG_ARGS.tableStride);
  f.op('i32.mul').op('i32.add').op('local.set', table);

  is(LONG_STEPS.keys);
  f.if();
  word(LONG_ARGS.res);
  f.op('local.get', b).op('i32.const', 4).op('i32.shl').op('i32.add').op('local.tee', res);
  f.op('i32.const', 0).op('i32.const', 16).op('memory.fill');
  f.op('local.get', table).op('i32.const', 0).op('i32.const', tableBytes(width)).op('memory.fill');
  spans(() => {
    word(LONG_ARGS.src);
    word(LONG_ARGS.dst);
    f.op('local.get', c0).op('local.get', c1).op('local.get', res).op('call', fns.keys);
    word(LONG_ARGS.dst);
    f.op('local.get', c0).op('local.get', c1).op('local.get', table).op('call', fns.countAll);
  });
  if (positions) {
    forUp(f, i, i0, i1, () => {
      word(LONG_ARGS.dstIdx);
      f.op('local.get', i).op('i32.const', 2).op('i32.shl').op('i32.add').op('local.get', i).mem('i32.store');
    });
  }
  f.end();

  // The pass's table of this block.
  f.op('local.get', table);
  word(LONG_ARGS.pass);
  f.op('i32.const', TABLE * 4).op('i32.mul').op('i32.add').op('local.set', table);

  is(LONG_STEPS.count);
  f.if();
  f.op('local.get', table).op('i32.const', 0).op('i32.const', TABLE * 4).op('memory.fill');
  spans(() => {
    word(LONG_ARGS.src);
    f.op('local.get', c0).op('local.get', c1).op('local.get', table);
    shift();
    f.op('call', fns.countPass);
  });
  f.end();

  is(LONG_STEPS.scatter);
  f.if();
  spans(() => {
    word(LONG_ARGS.src);
    word(LONG_ARGS.dst);
    f.op('local.get', c0).op('local.get', c1).op('local.get', table);
    shift();
    if (positions) {
      word(LONG_ARGS.srcIdx);
      word(LONG_ARGS.dstIdx);
    }
    f.op('call', fns.scatter);
  });
  f.end();

  is(LONG_STEPS.out);
  f.if();
  if (positions) {
    span(() => { word(LONG_ARGS.dst); }, 4);
    span(() => { word(LONG_ARGS.srcIdx); }, 4);
    count();
    f.op('i32.const', 2).op('i32.shl').op('memory.copy');
  } else {
    spans(() => {
      word(LONG_ARGS.src);
      word(LONG_ARGS.dst);
      f.op('local.get', c0).op('local.get', c1).op('call', fns.values);
    });
  }
  f.end();
  return index;
}

/**
 * Calls the long sort's block function of the launch's op (`op` a local
 * holding it, `first` the first long op) for each block of [b0, b1).
 */
function emitLongBlocks(f: FunctionBuilder, args: Local, b0: Local, b1: Local, op: Local, first: number, blockFns: readonly number[]): void {
  const word = routineWord(f, args);
  const [b, i0, i1] = [f.local('i32'), f.local('i32'), f.local('i32')];
  forUp(f, b, b0, b1, () => {
    emitSpan(f, () => { f.op('local.get', b); }, () => { f.op('local.get', b).op('i32.const', 1).op('i32.add'); }, () => { word(LONG_ARGS.block); }, () => { word(LONG_ARGS.n); }, i0, i1);
    blockFns.forEach((fn, k) => {
      f.op('local.get', op).op('i32.const', first + k).op('i32.eq');
      f.if();
      f.op('local.get', args).op('local.get', i0).op('local.get', i1).op('local.get', b).op('call', fn);
      f.end();
    });
  });
}

export { LONG_ARGS, LONG_DIGIT, LONG_STEPS, LONG_WORDS_BYTES, emitBlockOffsets, emitLongBlock, emitLongBlocks, tableBytes };
