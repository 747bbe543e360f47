// Selection over the sorting module's keys (radix-keys.ts): the key that a
// sort would put at position k, found by quickselect (Hoare's partition
// around the median of three) in O(n) on average, where a sort takes several
// passes over the line. It joins the sorting module, whose key transforms it
// works on.
import type { ModuleBuilder } from '../encode/module-builder.js';
import type { FunctionBuilder, Local } from '../encode/function-builder.js';
import { addressOf } from './radix-keys.js';

/** Ranges this short are finished by insertion. */
const SMALL = 16;

/**
 * select<width>(keys, lo, hi, k, budget) -> i32: reorders keys [lo, hi) so
 * that the key at k is the one a sort of the range puts there, those before
 * it no larger and those after it no smaller (unsigned keys). Returns 1, or
 * 0 when `budget` partitions did not narrow the range to SMALL keys (an
 * input that defeats the median of three; the caller sorts the line then).
 */
function emitSelect(m: ModuleBuilder, width: 32 | 64, insertion: number): number {
  const wide = width === 64;
  const t = wide ? 'i64' : 'i32';
  const kb = wide ? 8 : 4;
  const [index, f] = m.func(`select${width}`, ['i32', 'i32', 'i32', 'i32', 'i32'], ['i32']);
  const [keys, lo, hi, k, budget] = [f.param(0), f.param(1), f.param(2), f.param(3), f.param(4)];
  const [i, j, mid, med, last] = [f.local('i32'), f.local('i32'), f.local('i32'), f.local('i32'), f.local('i32')];
  const [a, b, c, pivot] = [f.local(t), f.local(t), f.local(t), f.local(t)];
  const key = (at: Local): void => { addressOf(f, keys, at, kb); f.mem(`${t}.load`); };
  const lt = (x: Local, y: Local): void => { f.op('local.get', x).op('local.get', y).op(`${t}.lt_u`); };
  const swap = (x: Local, y: Local): void => {
    // keys[x], keys[y] = keys[y], keys[x] (a and b are free here)
    key(x);
    f.op('local.set', a);
    addressOf(f, keys, x, kb);
    key(y);
    f.mem(`${t}.store`);
    addressOf(f, keys, y, kb);
    f.op('local.get', a).mem(`${t}.store`);
  };
  const pick = (x: Local): void => { f.op('local.get', x).op('local.set', med); };
  f.block().loop();
  // A short range: finished by insertion.
  f.op('local.get', hi).op('local.get', lo).op('i32.sub').op('i32.const', SMALL).op('i32.le_s');
  f.if();
  addressOf(f, keys, lo, kb);
  f.op('local.get', hi).op('local.get', lo).op('i32.sub').op('call', insertion);
  f.op('i32.const', 1).op('return');
  f.end();
  f.op('local.get', budget).op('i32.eqz');
  f.if().op('i32.const', 0).op('return').end();
  f.op('local.get', budget).op('i32.const', 1).op('i32.sub').op('local.set', budget);
  // The median of the first, middle and last keys, moved to lo as the pivot.
  f.op('local.get', hi).op('local.get', lo).op('i32.sub').op('i32.const', 1).op('i32.shr_u').op('local.get', lo).op('i32.add').op('local.set', mid);
  f.op('local.get', hi).op('i32.const', 1).op('i32.sub').op('local.set', last);
  key(lo);
  f.op('local.set', a);
  key(mid);
  f.op('local.set', b);
  key(last);
  f.op('local.set', c);
  lt(a, b);
  f.if();
  lt(b, c);
  f.if(); pick(mid); f.else();
  lt(a, c);
  f.if(); pick(last); f.else(); pick(lo); f.end();
  f.end();
  f.else();
  lt(a, c);
  f.if(); pick(lo); f.else();
  lt(b, c);
  f.if(); pick(last); f.else(); pick(mid); f.end();
  f.end();
  f.end();
  swap(lo, med);
  key(lo);
  f.op('local.set', pivot);
  // Hoare's partition: [lo, j] no larger than the pivot, [j + 1, hi) no smaller, lo <= j < hi - 1.
  f.op('local.get', lo).op('i32.const', 1).op('i32.sub').op('local.set', i);
  f.op('local.get', hi).op('local.set', j);
  f.block().loop();
  scanWhile(f, i, 1, () => { key(i); f.op('local.get', pivot).op(`${t}.lt_u`); });
  scanWhile(f, j, -1, () => { key(j); f.op('local.get', pivot).op(`${t}.gt_u`); });
  f.op('local.get', i).op('local.get', j).op('i32.ge_s').op('br_if', 1);
  swap(i, j);
  f.op('br', 0);
  f.end().end();
  // Narrow to the side holding k.
  f.op('local.get', k).op('local.get', j).op('i32.le_s');
  f.if();
  f.op('local.get', j).op('i32.const', 1).op('i32.add').op('local.set', hi);
  f.else();
  f.op('local.get', j).op('i32.const', 1).op('i32.add').op('local.set', lo);
  f.end();
  f.op('br', 0);
  f.end().end();
  f.op('i32.const', 1);
  return index;
}

/** Emits `do v += step; while (cond())`. */
function scanWhile(f: FunctionBuilder, v: Local, step: 1 | -1, cond: () => void): void {
  f.block().loop();
  f.op('local.get', v).op('i32.const', step).op('i32.add').op('local.set', v);
  cond();
  f.op('br_if', 0);
  f.end().end();
}

export { emitSelect };
