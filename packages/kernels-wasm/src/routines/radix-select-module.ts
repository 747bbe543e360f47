// Radix selection over the sorting module's keys (partition.ts): the key a
// sort puts at a position found a digit at a time, each digit's counts taken
// over the keys that share the digits found so far, until few keys are left
// to sort. Every step is a pass with no branch on the keys, where a
// quickselect's partitioning mispredicts about every other comparison.
import type { ModuleBuilder } from '../encode/module-builder.js';
import { addressOf } from './radix-keys.js';
import { TABLE, digitAddress } from './radix-layout.js';
import { forUp } from './emit-loops.js';

/**
 * prefix_count<width>(keys, i0, i1, counts, shift, mask, prefix): for keys
 * [i0, i1) whose bits under `mask` are `prefix`, adds one to the count of
 * their 11-bit digit at `shift`; keys elsewhere add zero. Two tables of
 * TABLE counts (even and odd keys), summed by the caller, so that a run of
 * keys with one digit does not wait on each add's store.
 */
function emitPrefixCount(m: ModuleBuilder, width: 32 | 64): number {
  const t = width === 64 ? 'i64' : 'i32';
  const kb = width / 8;
  const [index, f] = m.func(`prefix_count${width}`, ['i32', 'i32', 'i32', 'i32', 'i32', t, t], []);
  const [keys, i0, i1, counts, shift, mask, prefix] = [f.param(0), f.param(1), f.param(2), f.param(3), f.param(4), f.param(5), f.param(6)];
  const [i, at] = [f.local('i32'), f.local('i32')];
  const key = f.local(t);
  forUp(f, i, i0, i1, () => {
    addressOf(f, keys, i, kb);
    f.mem(`${t}.load`).op('local.set', key);
    digitAddress(f, t, key, { local: shift }, TABLE - 1, () => {
      f.op('local.get', counts).op('local.get', i).op('i32.const', 1).op('i32.and').op('i32.const', Math.log2(TABLE * 4)).op('i32.shl').op('i32.add');
    });
    f.op('local.tee', at).op('local.get', at).mem('i32.load');
    f.op('local.get', key).op('local.get', mask).op(`${t}.and`).op('local.get', prefix).op(`${t}.eq`);
    f.op('i32.add').mem('i32.store');
  });
  return index;
}

/**
 * prefix_gather<width>(keys, i0, i1, mask, prefix, out, count) -> count:
 * appends the keys of [i0, i1) whose bits under `mask` are `prefix` to
 * `out` from index `count` on, and returns the new count. Every key is
 * stored; the count moves past the ones that match.
 */
function emitPrefixGather(m: ModuleBuilder, width: 32 | 64): number {
  const t = width === 64 ? 'i64' : 'i32';
  const kb = width / 8;
  const [index, f] = m.func(`prefix_gather${width}`, ['i32', 'i32', 'i32', t, t, 'i32', 'i32'], ['i32']);
  const [keys, i0, i1, mask, prefix, out, count] = [f.param(0), f.param(1), f.param(2), f.param(3), f.param(4), f.param(5), f.param(6)];
  const i = f.local('i32');
  const key = f.local(t);
  forUp(f, i, i0, i1, () => {
    addressOf(f, keys, i, kb);
    f.mem(`${t}.load`).op('local.set', key);
    addressOf(f, out, count, kb);
    f.op('local.get', key).mem(`${t}.store`);
    f.op('local.get', count);
    f.op('local.get', key).op('local.get', mask).op(`${t}.and`).op('local.get', prefix).op(`${t}.eq`);
    f.op('i32.add').op('local.set', count);
  });
  f.op('local.get', count);
  return index;
}

export { emitPrefixCount, emitPrefixGather };
