// The sorting module's entry for the pool: kernel(args, b0, b1, scratch)
// sorts (or selects in) the lines of blocks [b0, b1), or runs one step of a
// long line's sort on blocks of that line (long-sort-kernel.ts), and claim
// (routine-kernel.ts) takes blocks until none are left, so that a worker
// runs the radix sort on its share of a launch. Each line of a launch of
// lines is sorted as sortLines sorts it (radix-sort.ts: the same calls in
// the same order), in a part of the launch's scratch that its thread takes.
import type { ModuleBuilder } from '../encode/module-builder.js';
import type { FunctionBuilder, Local } from '../encode/function-builder.js';
import { INSERTION, WIDE_DIGITS, countsBytes, inChunks } from './radix-layout.js';
import { emitClaim, emitSpan, routineWord } from './routine-kernel.js';
import { KINDS, addressOf, keyBits } from './radix-keys.js';
import { ZERO, forUp } from './emit-loops.js';
import { LONG_DIGIT, emitLongBlock, emitLongBlocks } from './long-sort-kernel.js';
import type { KeyKind, SortKind } from './radix-keys.js';

/** The sorting module's functions the kernel calls, by kind or by key width and digit. */
interface SortFunctions {
  readonly keys: Map<SortKind, number>;
  readonly values: Map<SortKind, number>;
  readonly fix: Map<SortKind, number>;
  readonly radix: Map<string, number>;
  readonly insertion: Map<string, number>;
  /** select<width>, by key width. */
  readonly select: Map<32 | 64, number>;
  /** count<width>_<bits> (radixKey without positions), count_pass<width> by key width, scatter<width>_<bits>[_idx] (radixKey). */
  readonly count: Map<string, number>;
  readonly countPass: Map<32 | 64, number>;
  readonly scatter: Map<string, number>;
}

const radixKey = (width: 32 | 64, bits: number, withIndex: boolean): string => `${width}_${bits}${withIndex ? '_idx' : ''}`;
const insertionKey = (width: 32 | 64, withIndex: boolean): string => `${width}${withIndex ? '_idx' : ''}`;

/** The sorting launch's own words (byte offsets from ROUTINE_WORDS after the header). */
const SORT_ARGS = {
  /** Which line function: 2 x the kind's index in KINDS, plus 1 for positions; selections past SELECT_OPS; a long line's steps past LONG_OPS. */
  op: 0,
  src: 4,
  dst: 8,
  /** Elements a line. */
  n: 12,
  lines: 16,
  linesPerBlock: 20,
  /** Bytes from one line of src, and of dst, to the next. */
  srcLine: 24,
  dstLine: 28,
  /** A selection's positions (selectPositions' layout), and its partitions a position before it sorts the line. */
  positions: 32,
  budget: 36,
} as const;
const SORT_WORDS_BYTES = 40;

/** Ops past the sorts' (2 a kind): selections, one a kind. */
const SELECT_OPS = 2 * KINDS.length;
/** Ops past the selections': one long line's steps (long-sort-kernel.ts), 2 a kind as the sorts'. */
const LONG_OPS = SELECT_OPS + KINDS.length;

const align16 = (bytes: number): number => Math.ceil(bytes / 16) * 16;

/**
 * A line's scratch, as the line functions lay it out (part() emits the same
 * offsets; sort-job.test.ts fails if they part): its keys, the radix sort's
 * other buffer, the count tables, the zeros' and NaNs' counts, and for
 * positions their other buffer.
 */
function lineScratch(kind: KeyKind, n: number, positions: boolean): { readonly tmp: number; readonly counts: number; readonly res: number; readonly tmpIdx: number; readonly bytes: number } {
  const keyBytes = align16(n * (keyBits(kind) / 8));
  const tmp = keyBytes;
  const counts = tmp + keyBytes;
  const res = counts + countsBytes(keyBits(kind));
  const tmpIdx = res + 16;
  return { tmp, counts, res, tmpIdx, bytes: tmpIdx + (positions ? align16(n * 4) : 0) };
}

/** The op word of a kind and output. */
const sortOp = (name: SortKind, positions: boolean): number => 2 * KINDS.findIndex((k) => k.name === name) + (positions ? 1 : 0);
/** The op word of a selection of a kind. */
const selectOp = (name: SortKind): number => SELECT_OPS + KINDS.findIndex((k) => k.name === name);
/** The op word of a long line's steps of a kind and output. */
const longOp = (name: SortKind, positions: boolean): number => LONG_OPS + sortOp(name, positions);

/** Bytes of a selection's scratch: a sort's (its fallback), then the line sorted. */
const selectScratch = (kind: KeyKind, n: number): number => lineScratch(kind, n, false).bytes + align16(n * kind.bytes);

/**
 * The positions of a selection as select_line reads them (i32s): how many,
 * how many distinct, the positions in their order, then the distinct ones
 * ascending.
 */
function selectPositions(positions: readonly number[]): Int32Array {
  const order = [...new Set(positions)].sort((a, b) => a - b);
  return Int32Array.from([positions.length, order.length, ...positions, ...order]);
}

/** `fn`, one of the sorting module's functions for `kind`, where it was made. */
function found(fn: number | undefined, kind: KeyKind): number {
  if (fn === undefined) throw new Error(`internal: the sorting module lacks a function for ${kind.name}`);
  return fn;
}

/** Calls `fn`, one of the sorting module's functions for `kind`. */
function callFound(f: FunctionBuilder, fn: number | undefined, kind: KeyKind): void {
  f.op('call', found(fn, kind));
}

/** Pushes `base + (offset of part, given n)`: the parts lie at multiples of n that lineScratch computes. */
function part(f: FunctionBuilder, scratch: Local, n: Local, kb: number, which: 'tmp' | 'counts' | 'res' | 'tmpIdx', width: 32 | 64): void {
  // keyBytes = align16(n * kb)
  const keyBytes = (): void => { f.op('local.get', n).op('i32.const', kb).op('i32.mul').op('i32.const', 15).op('i32.add').op('i32.const', -16).op('i32.and'); };
  f.op('local.get', scratch);
  keyBytes();
  f.op('i32.add');
  if (which === 'tmp') return;
  keyBytes();
  f.op('i32.add');
  if (which === 'counts') return;
  f.op('i32.const', countsBytes(width)).op('i32.add');
  if (which === 'res') return;
  f.op('i32.const', 16).op('i32.add');
}

/**
 * The line's keys into the start of its scratch, in spans, its zeros' and
 * NaNs' counts (res, in the scratch too) zeroed first: how sorting and
 * selection both begin.
 */
function emitLineKeys(f: FunctionBuilder, fns: SortFunctions, kind: KeyKind, l: { from: Local; n: Local; scratch: Local; res: Local; i0: Local; i1: Local }): void {
  const width = keyBits(kind);
  part(f, l.scratch, l.n, width / 8, 'res', width);
  f.op('local.tee', l.res).op('i32.const', 0).op('i32.const', 16).op('memory.fill');
  inChunks(f, l.n, l.i0, l.i1, () => {
    f.op('local.get', l.from).op('local.get', l.scratch).op('local.get', l.i0).op('local.get', l.i1).op('local.get', l.res);
    callFound(f, fns.keys.get(kind.name), kind);
  });
}

/** sort_line_<kind>[_idx](from, to, n, scratch): one line, as sortLines sorts it. */
function emitLine(m: ModuleBuilder, fns: SortFunctions, kind: KeyKind, positions: boolean): number {
  const width = keyBits(kind);
  const kb = width / 8;
  const [index, f] = m.func(`sort_line_${kind.name}${positions ? '_idx' : ''}`, ['i32', 'i32', 'i32', 'i32'], [], false);
  const [from, to, n, scratch] = [f.param(0), f.param(1), f.param(2), f.param(3)];
  const [i0, i1, res, sorted, parity] = [f.local('i32'), f.local('i32'), f.local('i32'), f.local('i32'), f.local('i32')];
  const call = (fn: number | undefined): void => { callFound(f, fn, kind); };
  emitLineKeys(f, fns, kind, { from, n, scratch, res, i0, i1 });
  const radix = (): void => {
    const operands = (): void => {
      f.op('local.get', scratch);
      part(f, scratch, n, kb, 'tmp', width);
      f.op('local.get', n);
      part(f, scratch, n, kb, 'counts', width);
      if (positions) {
        f.op('local.get', to);
        part(f, scratch, n, kb, 'tmpIdx', width);
      }
    };
    f.op('local.get', n).op('i32.const', WIDE_DIGITS).op('i32.ge_u');
    f.if('i32');
    operands();
    call(fns.radix.get(radixKey(width, 11, positions)));
    f.else();
    operands();
    call(fns.radix.get(radixKey(width, 8, positions)));
    f.end();
    f.op('local.set', parity);
  };
  // Short lines by insertion, the rest by the radix sort.
  f.op('local.get', n).op('i32.const', INSERTION).op('i32.le_u');
  f.if();
  f.op('local.get', scratch).op('local.get', n);
  if (positions) f.op('local.get', to);
  call(fns.insertion.get(insertionKey(width, positions)));
  f.op('i32.const', 0).op('local.set', parity);
  f.else();
  radix();
  f.end();
  if (positions) {
    // The positions ended in the other buffer: to their place.
    f.op('local.get', parity);
    f.if();
    f.op('local.get', to);
    part(f, scratch, n, kb, 'tmpIdx', width);
    f.op('local.get', n).op('i32.const', 2).op('i32.shl').op('memory.copy');
    f.end();
    return index;
  }
  f.op('local.get', parity);
  f.if('i32');
  part(f, scratch, n, kb, 'tmp', width);
  f.else();
  f.op('local.get', scratch);
  f.end();
  f.op('local.set', sorted);
  inChunks(f, n, i0, i1, () => {
    f.op('local.get', sorted).op('local.get', to).op('local.get', i0).op('local.get', i1);
    call(fns.values.get(kind.name));
  });
  if (kind.float) {
    // Zeros and NaNs come back as +0 and one NaN: their own bits, where any were met.
    f.op('local.get', res).mem('i32.load', { offset: 4 }).op('local.get', res).mem('i32.load', { offset: 8 }).op('i32.or');
    f.if();
    f.op('local.get', from).op('local.get', to).op('local.get', n).op('local.get', res);
    call(fns.fix.get(kind.name));
    f.end();
  }
  return index;
}

/**
 * select_line_<kind>(from, to, n, scratch, pos, budget): what selectLines
 * writes for one line (select.ts): the keys, quickselect at each distinct
 * position in turn, in the part past the one before, each selected key as its
 * element, and for floats a zero's or a NaN's own bits (the r-th zero or
 * NaN of the line, as the stable sort orders them); a line that defeats the
 * quickselect (more than `budget` partitions for a position) is sorted
 * instead (sort_line) and the positions read from it.
 */
function emitSelectLine(m: ModuleBuilder, fns: SortFunctions, kind: KeyKind, sortLine: number): number {
  const width = keyBits(kind);
  const kb = width / 8;
  const eb = kind.bytes;
  const [index, f] = m.func(`select_line_${kind.name}`, ['i32', 'i32', 'i32', 'i32', 'i32', 'i32'], [], false);
  const [from, to, n, scratch, pos, budget] = [f.param(0), f.param(1), f.param(2), f.param(3), f.param(4), f.param(5)];
  const i32 = (): Local => f.local('i32');
  const [i0, i1, res, count, origs, uniqs, u, lo, p, j, sorted, rank, seen] = [i32(), i32(), i32(), i32(), i32(), i32(), i32(), i32(), i32(), i32(), i32(), i32(), i32()];
  const call = (fn: number | undefined): void => { callFound(f, fn, kind); };
  emitLineKeys(f, fns, kind, { from, n, scratch, res, i0, i1 });
  f.op('local.get', pos).mem('i32.load').op('local.set', count);
  f.op('local.get', pos).op('i32.const', 8).op('i32.add').op('local.tee', origs);
  f.op('local.get', count).op('i32.const', 2).op('i32.shl').op('i32.add').op('local.set', uniqs);
  f.block(); // selected
  f.block(); // defeated
  f.op('i32.const', 0).op('local.set', lo);
  f.op('i32.const', 0).op('local.set', u);
  f.block().loop();
  f.op('local.get', u).op('local.get', pos).mem('i32.load', { offset: 4 }).op('i32.ge_u').op('br_if', 1);
  addressOf(f, uniqs, u, 4);
  f.mem('i32.load').op('local.set', p);
  f.op('local.get', scratch).op('local.get', lo).op('local.get', n).op('local.get', p).op('local.get', budget);
  call(fns.select.get(width));
  f.op('i32.eqz').op('br_if', 2);
  f.op('local.get', p).op('i32.const', 1).op('i32.add').op('local.set', lo);
  f.op('local.get', u).op('i32.const', 1).op('i32.add').op('local.set', u).op('br', 0);
  f.end().end();
  // Each selected key as its element: keys[p] read through a base that puts it at index j.
  f.op('i32.const', 0).op('local.set', j);
  f.block().loop();
  f.op('local.get', j).op('local.get', count).op('i32.ge_u').op('br_if', 1);
  addressOf(f, origs, j, 4);
  f.mem('i32.load').op('local.set', p);
  f.op('local.get', scratch).op('local.get', p).op('local.get', j).op('i32.sub').op('i32.const', Math.log2(kb)).op('i32.shl').op('i32.add');
  f.op('local.get', to).op('local.get', j).op('local.get', j).op('i32.const', 1).op('i32.add');
  call(fns.values.get(kind.name));
  if (kind.float) keepBits(f, kind, { from, to, n, res, p, j, rank, seen, i0 });
  f.op('local.get', j).op('i32.const', 1).op('i32.add').op('local.set', j).op('br', 0);
  f.end().end();
  f.op('br', 1);
  f.end(); // defeated: the line sorted, the positions read from it
  f.op('local.get', res).op('i32.const', 16).op('i32.add').op('local.set', sorted);
  f.op('local.get', from).op('local.get', sorted).op('local.get', n).op('local.get', scratch).op('call', sortLine);
  forUp(f, j, ZERO, count, () => {
    addressOf(f, to, j, eb);
    addressOf(f, origs, j, 4);
    f.mem('i32.load').op('local.set', p);
    addressOf(f, sorted, p, eb);
    f.op('i32.const', eb).op('memory.copy');
  });
  f.end(); // selected
  return index;
}

/**
 * A float key gives +0 for every zero and one NaN for every NaN: where the
 * element written at slot j is one, the r-th zero (NaN) of the line goes
 * there, r counted from the first zero's (NaN's) sorted position, as the
 * stable sort puts them (res: the line's negatives, zeros and NaNs). A scan
 * of the line a slot, for the few positions the kernel selects.
 */
function keepBits(f: FunctionBuilder, kind: KeyKind, l: { from: Local; to: Local; n: Local; res: Local; p: Local; j: Local; rank: Local; seen: Local; i0: Local }): void {
  const ft = kind.bytes === 8 ? 'f64' : 'f32';
  const eb = kind.bytes;
  const element = (base: Local, index: Local): void => { addressOf(f, base, index, eb); };
  /** The scan for the rank-th element of the line that `is` says is wanted, its bits copied to slot j. */
  const scan = (is: () => void): void => {
    f.op('i32.const', 0).op('local.set', l.seen);
    f.op('i32.const', 0).op('local.set', l.i0);
    f.block().loop();
    f.op('local.get', l.i0).op('local.get', l.n).op('i32.ge_u').op('br_if', 1);
    element(l.from, l.i0);
    f.mem(`${ft}.load`);
    is();
    f.if();
    f.op('local.get', l.seen).op('local.get', l.rank).op('i32.eq');
    f.if();
    element(l.to, l.j);
    element(l.from, l.i0);
    f.op('i32.const', eb).op('memory.copy').op('br', 3);
    f.end();
    f.op('local.get', l.seen).op('i32.const', 1).op('i32.add').op('local.set', l.seen);
    f.end();
    f.op('local.get', l.i0).op('i32.const', 1).op('i32.add').op('local.set', l.i0).op('br', 0);
    f.end().end();
  };
  const x = f.local(ft);
  element(l.to, l.j);
  f.mem(`${ft}.load`).op('local.tee', x).op('local.get', x).op(`${ft}.ne`);
  f.if();
  // A NaN: rank = p - (n - NaNs).
  f.op('local.get', l.p).op('local.get', l.n).op('local.get', l.res).mem('i32.load', { offset: 8 }).op('i32.sub').op('i32.sub').op('local.set', l.rank);
  scan(() => { f.op('local.tee', x).op('local.get', x).op(`${ft}.ne`); });
  f.else();
  f.op('local.get', x).op(`${ft}.const`, 0).op(`${ft}.eq`);
  f.if();
  // A zero: rank = p - negatives.
  f.op('local.get', l.p).op('local.get', l.res).mem('i32.load').op('i32.sub').op('local.set', l.rank);
  scan(() => { f.op(`${ft}.const`, 0).op(`${ft}.eq`); });
  f.end();
  f.end();
}

/**
 * kernel(args, b0, b1, scratch): the lines of blocks [b0, b1), each block
 * `linesPerBlock` lines (the last fewer), sorted or selected in `scratch`, or
 * for a long line's ops, a step of its sort on blocks [b0, b1) of the line
 * (long-sort-kernel.ts); and
 * claim(args, blocks) -> ran, which takes a part of the scratch area, then
 * blocks one at a time with an atomic add on the launch's claim word until
 * none are left.
 */
function emitSortKernel(m: ModuleBuilder, fns: SortFunctions): void {
  const lineFns = KINDS.flatMap((k) => [emitLine(m, fns, k, false), emitLine(m, fns, k, true)]);
  const selectFns = KINDS.map((k, i) => emitSelectLine(m, fns, k, lineFns[2 * i]!));
  const longFns = KINDS.flatMap((k) => [false, true].map((positions) => {
    const width = keyBits(k);
    return emitLongBlock(m, k, positions, {
      keys: found(fns.keys.get(k.name), k), values: found(fns.values.get(k.name), k),
      countAll: found(fns.count.get(radixKey(width, LONG_DIGIT, false)), k), countPass: found(fns.countPass.get(width), k),
      scatter: found(fns.scatter.get(radixKey(width, LONG_DIGIT, positions)), k),
    });
  }));
  const [kernel, f] = m.func('kernel', ['i32', 'i32', 'i32', 'i32'], []);
  const [args, b0, b1, scratch] = [f.param(0), f.param(1), f.param(2), f.param(3)];
  const [op, l, end, from, to, n] = [f.local('i32'), f.local('i32'), f.local('i32'), f.local('i32'), f.local('i32'), f.local('i32')];
  const word = routineWord(f, args);
  word(SORT_ARGS.op);
  f.op('local.tee', op).op('i32.const', LONG_OPS).op('i32.ge_u');
  f.if();
  emitLongBlocks(f, args, b0, b1, op, LONG_OPS, longFns);
  f.op('return');
  f.end();
  word(SORT_ARGS.n);
  f.op('local.set', n);
  emitSpan(f, () => { f.op('local.get', b0); }, () => { f.op('local.get', b1); }, () => { word(SORT_ARGS.linesPerBlock); }, () => { word(SORT_ARGS.lines); }, l, end);
  f.block().loop();
  f.op('local.get', l).op('local.get', end).op('i32.ge_u').op('br_if', 1);
  word(SORT_ARGS.src);
  f.op('local.get', l);
  word(SORT_ARGS.srcLine);
  f.op('i32.mul').op('i32.add').op('local.set', from);
  word(SORT_ARGS.dst);
  f.op('local.get', l);
  word(SORT_ARGS.dstLine);
  f.op('i32.mul').op('i32.add').op('local.set', to);
  lineFns.forEach((fn, code) => {
    f.op('local.get', op).op('i32.const', code).op('i32.eq');
    f.if();
    f.op('local.get', from).op('local.get', to).op('local.get', n).op('local.get', scratch).op('call', fn);
    f.end();
  });
  selectFns.forEach((fn, i) => {
    f.op('local.get', op).op('i32.const', SELECT_OPS + i).op('i32.eq');
    f.if();
    f.op('local.get', from).op('local.get', to).op('local.get', n).op('local.get', scratch);
    word(SORT_ARGS.positions);
    word(SORT_ARGS.budget);
    f.op('call', fn);
    f.end();
  });
  f.op('local.get', l).op('i32.const', 1).op('i32.add').op('local.set', l).op('br', 0);
  f.end().end();
  emitClaim(m, kernel);
}

export { SORT_ARGS, SORT_WORDS_BYTES, emitSortKernel, insertionKey, lineScratch, longOp, radixKey, selectOp, selectPositions, selectScratch, sortOp };
export type { SortFunctions };
