// The partition's counting pass over the sorting module's keys: each key's
// class against a line's distinct kth keys (partition.ts), found by binary
// search. It joins the sorting module, whose key transforms it reads.
import type { ModuleBuilder } from '../encode/module-builder.js';
import { addressOf } from './radix-keys.js';
import { ZERO, forUp } from './emit-loops.js';

/**
 * classify<width>(keys, n, pivots, d, cls, counts): for each of n keys, its
 * class c against the d >= 1 ascending distinct keys at `pivots` (unsigned):
 * 2j for a key above j of them and below the rest, 2j + 1 for one equal to
 * pivot j; writes c to the i32 at cls + 4i and adds one to the i32 at
 * counts + 4 (4c + i mod 4) (four counts a class, zeroed by the caller, so
 * that neighbouring keys of one class do not wait on each other's store).
 * The search is branch-free (its steps depend on d alone): with the kth
 * element near the median, which side a key falls on is a coin toss that a
 * branch would mispredict half the time.
 */
function emitClassify(m: ModuleBuilder, width: 32 | 64): number {
  const wide = width === 64;
  const t = wide ? 'i64' : 'i32';
  const kb = wide ? 8 : 4;
  const [index, f] = m.func(`classify${width}`, ['i32', 'i32', 'i32', 'i32', 'i32', 'i32'], []);
  const [keys, n, pivots, d, cls, counts] = [f.param(0), f.param(1), f.param(2), f.param(3), f.param(4), f.param(5)];
  const [i, base, len, half, c, at] = [f.local('i32'), f.local('i32'), f.local('i32'), f.local('i32'), f.local('i32'), f.local('i32')];
  const key = f.local(t);
  forUp(f, i, ZERO, n, () => {
    addressOf(f, keys, i, kb);
    f.mem(`${t}.load`).op('local.set', key);
    // base: the last pivot below the key, or 0 (lower_bound without branches on the keys).
    f.op('i32.const', 0).op('local.set', base);
    f.op('local.get', d).op('local.set', len);
    f.block().loop();
    f.op('local.get', len).op('i32.const', 1).op('i32.le_u').op('br_if', 1);
    f.op('local.get', len).op('i32.const', 1).op('i32.shr_u').op('local.set', half);
    // base = pivots[base + half] < key ? base + half : base
    f.op('local.get', base).op('local.get', half).op('i32.add');
    f.op('local.get', base);
    f.op('local.get', base).op('local.get', half).op('i32.add').op('local.set', at);
    addressOf(f, pivots, at, kb);
    f.mem(`${t}.load`).op('local.get', key).op(`${t}.lt_u`);
    f.op('select').op('local.set', base);
    f.op('local.get', len).op('local.get', half).op('i32.sub').op('local.set', len);
    f.op('br', 0);
    f.end().end();
    // lb, the first pivot not below the key: base, plus one where pivots[base] is below it. c = 2 lb,
    // plus one where pivot lb exists and equals the key (read at min(lb, d - 1): when lb = d, every
    // pivot is below the key and the comparison fails).
    addressOf(f, pivots, base, kb);
    f.mem(`${t}.load`).op('local.get', key).op(`${t}.lt_u`);
    f.op('local.get', base).op('i32.add').op('local.set', at);
    f.op('local.get', at).op('i32.const', 1).op('i32.shl').op('local.set', c);
    f.op('local.get', at).op('local.get', d).op('i32.const', 1).op('i32.sub');
    f.op('local.get', at).op('local.get', d).op('i32.lt_u').op('select').op('local.set', at);
    addressOf(f, pivots, at, kb);
    f.mem(`${t}.load`).op('local.get', key).op(`${t}.eq`);
    f.op('local.get', c).op('i32.add').op('local.set', c);
    addressOf(f, cls, i, 4);
    f.op('local.get', c).mem('i32.store');
    // counts + 4 (4c + i mod 4)
    f.op('local.get', counts).op('local.get', c).op('i32.const', 4).op('i32.shl').op('i32.add');
    f.op('local.get', i).op('i32.const', 3).op('i32.and').op('i32.const', 2).op('i32.shl').op('i32.add').op('local.tee', at);
    f.op('local.get', at).mem('i32.load').op('i32.const', 1).op('i32.add').mem('i32.store');
  });
  return index;
}

export { emitClassify };
