// NumPy's add.at over the heap: rows of a target named by int32 indices,
// each added to once per mention, in order, in the target's own type (the
// caller runs it only where add's type for the target and the values is
// the target's: integers wrap, floats round as one add each). The indices
// are checked first, so that a bad one fails before anything is written.
import { ModuleBuilder } from '../encode/module-builder.js';
import { WASM32_MAX_PAGES } from '../heap/constants.js';
import { ZERO, forUp } from './emit-loops.js';
import { emitClaim, emitSpan, routineWord } from './routine-kernel.js';

/** The element types add_at is built for: in memory, the value type computed in, and the add. */
const TYPES = {
  f64: { bytes: 8, load: 'f64.load', store: 'f64.store', add: 'f64.add' },
  f32: { bytes: 4, load: 'f32.load', store: 'f32.store', add: 'f32.add' },
  i64: { bytes: 8, load: 'i64.load', store: 'i64.store', add: 'i64.add' },
  i32: { bytes: 4, load: 'i32.load', store: 'i32.store', add: 'i32.add' },
  i16: { bytes: 2, load: 'i32.load16_s', store: 'i32.store16', add: 'i32.add' },
  i8: { bytes: 1, load: 'i32.load8_s', store: 'i32.store8', add: 'i32.add' },
} as const;

type AddAtType = keyof typeof TYPES;

/**
 * check_indices(idx, m, rows) -> i32: the position of the first of m int32
 * indices outside [-rows, rows), or -1. Four at a time while all are in
 * range, then one at a time from the first group that holds one that is not.
 */
function emitCheck(m: ModuleBuilder): void {
  const [, f] = m.func('check_indices', ['i32', 'i32', 'i32'], ['i32']);
  const [idx, count, rows] = [f.param(0), f.param(1), f.param(2)];
  const [k, i] = [f.local('i32'), f.local('i32')];
  const [hi, lo, v] = [f.local('v128'), f.local('v128'), f.local('v128')];
  f.op('local.get', rows).op('i32x4.splat').op('local.set', hi);
  f.op('i32.const', 0).op('local.get', rows).op('i32.sub').op('i32x4.splat').op('local.set', lo);
  f.op('i32.const', 0).op('local.set', k);
  f.block().loop();
  f.op('local.get', k).op('i32.const', 4).op('i32.add').op('local.get', count).op('i32.gt_u').op('br_if', 1);
  f.op('local.get', idx).op('local.get', k).op('i32.const', 2).op('i32.shl').op('i32.add').mem('v128.load').op('local.tee', v);
  f.op('local.get', hi).op('i32x4.ge_s');
  f.op('local.get', v).op('local.get', lo).op('i32x4.lt_s');
  f.op('v128.or').op('v128.any_true').op('br_if', 1);
  f.op('local.get', k).op('i32.const', 4).op('i32.add').op('local.set', k).op('br', 0);
  f.end().end();
  // The rest, or the group that holds one out of range, one at a time.
  f.block();
  forUp(f, k, k, count, () => {
    f.op('local.get', idx).op('local.get', k).op('i32.const', 2).op('i32.shl').op('i32.add').mem('i32.load').op('local.tee', i);
    // Out of range: i >= rows or i < -rows.
    f.op('local.get', rows).op('i32.ge_s');
    f.op('local.get', i).op('i32.const', 0).op('local.get', rows).op('i32.sub').op('i32.lt_s').op('i32.or');
    f.if().op('local.get', k).op('return').end();
  });
  f.end();
  f.op('i32.const', -1);
}

/**
 * add_at_<t>(out, rows, inner, idx, m, vals, vstride): for k = 0..m, row
 * idx[k] of out (from the end if negative; rows of `inner` elements) plus row
 * k of vals, `vstride` elements from one row of vals to the next and 1 along
 * a row (0 and 0 for one value broadcast: vstride -1).
 */
function emitAddAt(m: ModuleBuilder, name: AddAtType): void {
  const t = TYPES[name];
  const [, f] = m.func(`add_at_${name}`, ['i32', 'i32', 'i32', 'i32', 'i32', 'i32', 'i32'], []);
  const [out, rows, inner, idx, count, vals, vstride] = [f.param(0), f.param(1), f.param(2), f.param(3), f.param(4), f.param(5), f.param(6)];
  const [k, j, i, row, vrow, step] = [f.local('i32'), f.local('i32'), f.local('i32'), f.local('i32'), f.local('i32'), f.local('i32')];
  const shift = Math.log2(t.bytes);
  // One value for every element: its element step is 0, as its row step.
  f.op('local.get', vstride).op('i32.const', 0).op('i32.ge_s').op('local.set', step);
  // Rows of one element (a bincount's): one load, add and store a mention.
  f.op('local.get', inner).op('i32.const', 1).op('i32.eq');
  f.if();
  forUp(f, k, ZERO, count, () => {
    f.op('local.get', idx).op('local.get', k).op('i32.const', 2).op('i32.shl').op('i32.add').mem('i32.load').op('local.tee', i);
    // i + rows where i < 0: (i >> 31) & rows.
    f.op('local.get', i).op('i32.const', 31).op('i32.shr_s').op('local.get', rows).op('i32.and').op('i32.add');
    f.op('i32.const', shift).op('i32.shl').op('local.get', out).op('i32.add').op('local.tee', row);
    f.op('local.get', row).mem(t.load);
    f.op('local.get', vals).op('local.get', k).op('local.get', step).op('i32.mul').op('i32.const', shift).op('i32.shl').op('i32.add').mem(t.load);
    f.op(t.add).mem(t.store);
  });
  f.op('return');
  f.end();
  forUp(f, k, ZERO, count, () => {
    f.op('local.get', idx).op('local.get', k).op('i32.const', 2).op('i32.shl').op('i32.add').mem('i32.load').op('local.tee', i);
    f.op('i32.const', 0).op('i32.lt_s');
    f.if().op('local.get', i).op('local.get', rows).op('i32.add').op('local.set', i).end();
    f.op('local.get', out).op('local.get', i).op('local.get', inner).op('i32.mul').op('i32.const', shift).op('i32.shl').op('i32.add').op('local.set', row);
    // vrow = vals + k * vstride * bytes when vstride >= 0, else vals.
    f.op('local.get', vals);
    f.op('local.get', k).op('local.get', vstride).op('i32.mul').op('i32.const', shift).op('i32.shl');
    f.op('i32.const', 0).op('local.get', step).op('select').op('i32.add').op('local.set', vrow);
    forUp(f, j, ZERO, inner, () => {
      f.op('local.get', row).op('local.get', j).op('i32.const', shift).op('i32.shl').op('i32.add');
      f.op('local.get', row).op('local.get', j).op('i32.const', shift).op('i32.shl').op('i32.add').mem(t.load);
      f.op('local.get', vrow).op('local.get', j).op('local.get', step).op('i32.mul').op('i32.const', shift).op('i32.shl').op('i32.add').mem(t.load);
      f.op(t.add).mem(t.store);
    });
  });
}

/** Copies of the target spread_add_at adds into, element k into copy k mod SPREAD. */
const SPREAD = 4;

/**
 * spread_count_<t>(rows, idx, from, to, vals, vstride, scratch) -> i32, then
 * spread_merge_<t>(out, rows, scratch): add_at of elements [from, to) for
 * rows of one element of an integer type, where the order of the adds
 * cannot change the sum (they wrap), with a value per element (vstride 1)
 * or one for all (-1). Element k goes to copy k mod SPREAD of the target in
 * scratch (SPREAD x rows elements, zeroed by the caller; the last few past
 * a multiple of SPREAD to copy 0), so that neighbouring elements with the
 * same index do not wait on each other's store; the merge adds the copies
 * into out. Each index is checked as it is read: the count returns the
 * position of the first outside [-rows, rows), else -1, and out is written
 * only by the merge.
 */
function emitSpreadAddAt(m: ModuleBuilder, name: CountType): number {
  const t = TYPES[name];
  const shift = Math.log2(t.bytes);
  const [index, f] = m.func(`spread_count_${name}`, ['i32', 'i32', 'i32', 'i32', 'i32', 'i32', 'i32'], ['i32']);
  const [rows, idx, from, to, vals, vstride, scratch] = [f.param(0), f.param(1), f.param(2), f.param(3), f.param(4), f.param(5), f.param(6)];
  const [k, i, at, copyBytes] = [f.local('i32'), f.local('i32'), f.local('i32'), f.local('i32')];
  const value = f.local(name === 'i64' ? 'i64' : 'i32');
  const base = Array.from({ length: SPREAD }, () => f.local('i32'));
  f.op('local.get', rows).op('i32.const', shift).op('i32.shl').op('local.set', copyBytes);
  for (let c = 0; c < SPREAD; c++) f.op('local.get', scratch).op('local.get', copyBytes).op('i32.const', c).op('i32.mul').op('i32.add').op('local.set', base[c]!);
  /**
   * Adds element k + copy's value (pushed by `push`) into copy `copy` at its
   * index, or returns k + copy if the index is out of range.
   */
  const addOne = (copy: number, push: () => void): void => {
    f.op('local.get', idx).op('local.get', k).op('i32.const', 2).op('i32.shl').op('i32.add').mem('i32.load', { offset: copy * 4 }).op('local.tee', i);
    // i + rows where i < 0; then one unsigned test for both ends.
    f.op('local.get', i).op('i32.const', 31).op('i32.shr_s').op('local.get', rows).op('i32.and').op('i32.add').op('local.tee', i);
    f.op('local.get', rows).op('i32.ge_u');
    f.if().op('local.get', k).op('i32.const', copy).op('i32.add').op('return').end();
    f.op('local.get', i).op('i32.const', shift).op('i32.shl').op('local.get', base[copy]!).op('i32.add');
    f.op('local.tee', at).op('local.get', at).mem(t.load);
    push();
    f.op(t.add).mem(t.store);
  };
  /** The loop over every element, four at a time then one by one, `push(c)` pushing element k + c's value. */
  const elements = (push: (c: number) => void): void => {
    f.op('local.get', from).op('local.set', k);
    f.block().loop();
    f.op('local.get', k).op('i32.const', SPREAD).op('i32.add').op('local.get', to).op('i32.gt_u').op('br_if', 1);
    for (let c = 0; c < SPREAD; c++) addOne(c, () => { push(c); });
    f.op('local.get', k).op('i32.const', SPREAD).op('i32.add').op('local.set', k).op('br', 0);
    f.end().end();
    forUp(f, k, k, to, () => { addOne(0, () => { push(0); }); });
  };
  // One value for all (vstride -1): read once.
  f.op('local.get', vstride).op('i32.const', 0).op('i32.lt_s');
  f.if();
  f.op('local.get', vals).mem(t.load).op('local.set', value);
  elements(() => { f.op('local.get', value); });
  f.else();
  elements((c) => { f.op('local.get', vals).op('local.get', k).op('i32.const', shift).op('i32.shl').op('i32.add').mem(t.load, { offset: c * t.bytes }); });
  f.end();
  f.op('i32.const', -1);
  emitSpreadMerge(m, name);
  return index;
}

/** spread_merge_<t>(out, rows, scratch): out[r] += c0[r] + c1[r] + ... (wrapping: any order gives the same bits). */
function emitSpreadMerge(m: ModuleBuilder, name: 'i64' | 'i32' | 'i16' | 'i8'): void {
  const t = TYPES[name];
  const shift = Math.log2(t.bytes);
  const [, f] = m.func(`spread_merge_${name}`, ['i32', 'i32', 'i32'], []);
  const [out, rows, scratch] = [f.param(0), f.param(1), f.param(2)];
  const [i, at, copyBytes] = [f.local('i32'), f.local('i32'), f.local('i32')];
  f.op('local.get', rows).op('i32.const', shift).op('i32.shl').op('local.set', copyBytes);
  forUp(f, i, ZERO, rows, () => {
    f.op('local.get', out).op('local.get', i).op('i32.const', shift).op('i32.shl').op('i32.add').op('local.tee', at);
    f.op('local.get', at).mem(t.load);
    f.op('local.get', scratch).op('local.get', i).op('i32.const', shift).op('i32.shl').op('i32.add').op('local.tee', at);
    f.mem(t.load);
    for (let c = 1; c < SPREAD; c++) {
      f.op('local.get', at).op('local.get', copyBytes).op('i32.const', c).op('i32.mul').op('i32.add').mem(t.load).op(t.add);
    }
    f.op(t.add).mem(t.store);
  });
}

/** The integer types counts spread over copies: their adds wrap. */
const COUNT_TYPES = ['i64', 'i32', 'i16', 'i8'] as const;
type CountType = (typeof COUNT_TYPES)[number];

/**
 * kernel(args, b0, b1, part): spread_count over blocks [b0, b1) of the
 * indices (COUNT_ARGS.block indices each) into this thread's part of the
 * scratch (SPREAD copies of the target, zeroed by the caller), each block's
 * first bad position (or -1) written at COUNT_ARGS.bad + 4 b; claim
 * (routine-kernel.ts) takes the part, then the blocks. The parts are added
 * into the target after the launch: the sums wrap, so which thread counted
 * which block does not change the bits.
 */
function emitCountKernel(m: ModuleBuilder, counts: readonly number[]): void {
  const [kernel, f] = m.func('kernel', ['i32', 'i32', 'i32', 'i32'], []);
  const [args, b0, b1, part] = [f.param(0), f.param(1), f.param(2), f.param(3)];
  const [b, i0, i1] = [f.local('i32'), f.local('i32'), f.local('i32')];
  const word = routineWord(f, args);
  forUp(f, b, b0, b1, () => {
    emitSpan(f, () => { f.op('local.get', b); }, () => { f.op('local.get', b).op('i32.const', 1).op('i32.add'); }, () => { word(COUNT_ARGS.block); }, () => { word(COUNT_ARGS.m); }, i0, i1);
    // bad[b] = spread_count_<t>(rows, idx, i0, i1, vals, vstride, part)
    word(COUNT_ARGS.bad);
    f.op('local.get', b).op('i32.const', 2).op('i32.shl').op('i32.add');
    counts.forEach((fn, code) => {
      word(COUNT_ARGS.op);
      f.op('i32.const', code).op('i32.eq');
      f.if('i32');
      word(COUNT_ARGS.rows);
      word(COUNT_ARGS.idx);
      f.op('local.get', i0).op('local.get', i1);
      word(COUNT_ARGS.vals);
      word(COUNT_ARGS.vstride);
      f.op('local.get', part).op('call', fn);
      f.else();
    });
    f.op('i32.const', -1);
    for (let c = 0; c < counts.length; c++) f.end();
    f.mem('i32.store');
  });
  emitClaim(m, kernel);
}

/** The count launch's own words (byte offsets from ROUTINE_WORDS after the header). */
const COUNT_ARGS = { op: 0, rows: 4, idx: 8, m: 12, vals: 16, vstride: 20, block: 24, bad: 28 } as const;
const COUNT_WORDS_BYTES = 32;

/** The scatter module's bytes, importing `env.memory` (shared or not, as the heap's memory is). */
function buildScatterModule(shared: boolean): Uint8Array<ArrayBuffer> {
  const m = new ModuleBuilder().importMemory({ module: 'env', name: 'memory', initial: 1, maximum: WASM32_MAX_PAGES, shared });
  emitCheck(m);
  for (const name of Object.keys(TYPES) as AddAtType[]) emitAddAt(m, name);
  emitCountKernel(m, COUNT_TYPES.map((name) => emitSpreadAddAt(m, name)));
  return m.toBytes();
}

export { buildScatterModule, COUNT_ARGS, COUNT_TYPES, COUNT_WORDS_BYTES, SPREAD };
export type { CountType };
export type { AddAtType };
