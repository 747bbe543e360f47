// NumPy's add.at over the heap: rows of a target named by int32 indices,
// each added to once per mention, in order, in the target's own type (the
// caller runs it only where add's type for the target and the values is
// the target's: integers wrap, floats round as one add each). The indices
// are checked first, so that a bad one fails before anything is written.
import { ModuleBuilder } from '../encode/module-builder.js';
import { WASM32_MAX_PAGES } from '../heap/constants.js';
import { ZERO, forUp } from './emit-loops.js';

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
 * spread_count_<t>(rows, idx, m, vals, vstride, scratch) -> i32, then
 * spread_merge_<t>(out, rows, scratch): add_at for rows of one element of an
 * integer type, where the order of the adds cannot change the sum (they
 * wrap), with a value per element (vstride 1) or one for all (-1). Element
 * k goes to copy k mod SPREAD of the target in scratch (the last m mod
 * SPREAD to copy 0; SPREAD x rows elements, zeroed first), so that neighbouring elements with
 * the same index do not wait on each other's store; the merge adds the
 * copies into out. Each index is checked as it is read: the count returns
 * the position of the first outside [-rows, rows), else -1, and out is
 * written only by the merge.
 */
function emitSpreadAddAt(m: ModuleBuilder, name: 'i64' | 'i32' | 'i16' | 'i8'): void {
  const t = TYPES[name];
  const shift = Math.log2(t.bytes);
  const [, f] = m.func(`spread_count_${name}`, ['i32', 'i32', 'i32', 'i32', 'i32', 'i32'], ['i32']);
  const [rows, idx, count, vals, vstride, scratch] = [f.param(0), f.param(1), f.param(2), f.param(3), f.param(4), f.param(5)];
  const [k, i, at, copyBytes] = [f.local('i32'), f.local('i32'), f.local('i32'), f.local('i32')];
  const value = f.local(name === 'i64' ? 'i64' : 'i32');
  const base = Array.from({ length: SPREAD }, () => f.local('i32'));
  f.op('local.get', rows).op('i32.const', shift).op('i32.shl').op('local.set', copyBytes);
  f.op('local.get', scratch).op('i32.const', 0).op('local.get', copyBytes).op('i32.const', SPREAD).op('i32.mul').op('memory.fill');
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
    f.op('i32.const', 0).op('local.set', k);
    f.block().loop();
    f.op('local.get', k).op('i32.const', SPREAD).op('i32.add').op('local.get', count).op('i32.gt_u').op('br_if', 1);
    for (let c = 0; c < SPREAD; c++) addOne(c, () => { push(c); });
    f.op('local.get', k).op('i32.const', SPREAD).op('i32.add').op('local.set', k).op('br', 0);
    f.end().end();
    forUp(f, k, k, count, () => { addOne(0, () => { push(0); }); });
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

/** The scatter module's bytes, importing `env.memory` (shared or not, as the heap's memory is). */
function buildScatterModule(shared: boolean): Uint8Array<ArrayBuffer> {
  const m = new ModuleBuilder().importMemory({ module: 'env', name: 'memory', initial: 1, maximum: WASM32_MAX_PAGES, shared });
  emitCheck(m);
  for (const name of Object.keys(TYPES) as AddAtType[]) emitAddAt(m, name);
  for (const name of ['i64', 'i32', 'i16', 'i8'] as const) emitSpreadAddAt(m, name);
  return m.toBytes();
}

export { buildScatterModule, SPREAD };
export type { AddAtType };
