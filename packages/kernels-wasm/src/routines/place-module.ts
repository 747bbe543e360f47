// The partition's placing pass (partition.ts): each element of a line moved
// to its place from its class (classify-module.ts), in WebAssembly, where
// the same loop in JavaScript took as long as the rest of the partition.
import type { ModuleBuilder } from '../encode/module-builder.js';
import type { FunctionBuilder, Local } from '../encode/function-builder.js';
import { addressOf } from './radix-keys.js';
import { forUp } from './emit-loops.js';

const LOADS: Record<number, string> = { 1: 'i32.load8_u', 2: 'i32.load16_u', 4: 'i32.load', 8: 'i64.load' };
const STORES: Record<number, string> = { 1: 'i32.store8', 2: 'i32.store16', 4: 'i32.store', 8: 'i64.store' };

/** Pushes the i32 at `base + 4 i`. */
function load(f: FunctionBuilder, base: Local, i: Local): void {
  addressOf(f, base, i, 4);
  f.mem('i32.load');
}

/**
 * place<bytes | _idx>(cls, i0, i1, fills, free, below, seen, part, kth, m,
 * src, dst): for each element i in [i0, i1) of the line, in order, its place p from its
 * class c: for c = 2j (between pivots), the next free place of part
 * fills[j]; for c = 2j + 1 (equal to pivot j), its sorted position rank =
 * below[j] + seen[j] (seen[j] then counts it), which is p where a kth holds
 * it, else the next free place of the part holding it (part[j] walks kth
 * as the ranks grow). Then element i of `src` (`bytes` wide) goes to place
 * p of `dst`, or, for _idx, i itself as an i32. free, seen and part are i32
 * arrays the pass updates; the others are read.
 */
function emitPlace(m: ModuleBuilder, bytes: 1 | 2 | 4 | 8 | 'idx'): number {
  const name = bytes === 'idx' ? 'place_idx' : `place${bytes}`;
  const [index, f] = m.func(name, Array(12).fill('i32') as 'i32'[], []);
  const [cls, i0, i1, fills, free, below] = [f.param(0), f.param(1), f.param(2), f.param(3), f.param(4), f.param(5)];
  const [seen, part, kth, kthCount, src, dst] = [f.param(6), f.param(7), f.param(8), f.param(9), f.param(10), f.param(11)];
  const [i, c, j, p] = [f.local('i32'), f.local('i32'), f.local('i32'), f.local('i32')];
  const [s, rank, at] = [f.local('i32'), f.local('i32'), f.local('i32')];
  /** p = free[s]++: the next free place of part s. */
  const takeFree = (): void => {
    addressOf(f, free, s, 4);
    f.op('local.tee', at).mem('i32.load').op('local.set', p);
    f.op('local.get', at).op('local.get', p).op('i32.const', 1).op('i32.add').mem('i32.store');
  };
  forUp(f, i, i0, i1, () => {
    load(f, cls, i);
    f.op('local.tee', c).op('i32.const', 1).op('i32.shr_u').op('local.set', j);
    f.op('local.get', c).op('i32.const', 1).op('i32.and');
    f.if();
    // Equal to pivot j: rank = below[j] + seen[j]++, its sorted position.
    load(f, seen, j);
    f.op('local.set', p);
    addressOf(f, seen, j, 4);
    f.op('local.get', p).op('i32.const', 1).op('i32.add').mem('i32.store');
    load(f, below, j);
    f.op('local.get', p).op('i32.add').op('local.set', rank);
    // s = the first kth index from part[j] on whose position is not below the rank.
    load(f, part, j);
    f.op('local.set', s);
    f.block().loop();
    f.op('local.get', s).op('local.get', kthCount).op('i32.ge_u').op('br_if', 1);
    load(f, kth, s);
    f.op('local.get', rank).op('i32.ge_s').op('br_if', 1);
    f.op('local.get', s).op('i32.const', 1).op('i32.add').op('local.set', s).op('br', 0);
    f.end().end();
    addressOf(f, part, j, 4);
    f.op('local.get', s).mem('i32.store');
    // A kth holding the rank takes it (out of the block); else the part's next free place.
    f.op('local.get', rank).op('local.set', p);
    f.block();
    f.op('local.get', s).op('local.get', kthCount).op('i32.lt_u');
    f.if();
    load(f, kth, s);
    f.op('local.get', rank).op('i32.eq').op('br_if', 1);
    f.end();
    takeFree();
    f.end();
    f.else();
    // Between pivots: the next free place of part fills[j].
    load(f, fills, j);
    f.op('local.set', s);
    takeFree();
    f.end();
    if (bytes === 'idx') {
      addressOf(f, dst, p, 4);
      f.op('local.get', i).mem('i32.store');
    } else {
      addressOf(f, dst, p, bytes);
      addressOf(f, src, i, bytes);
      f.mem(LOADS[bytes]!).mem(STORES[bytes]!);
    }
  });
  return index;
}

export { emitPlace };
