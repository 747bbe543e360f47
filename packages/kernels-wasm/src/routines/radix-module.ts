// The sorting module: a stable LSD radix sort over unsigned keys of 32 or 64
// bits, with the key transforms (radix-keys.ts) that make an element's order
// NumPy's (every NaN after everything, -0 equal to +0) and back. One module
// per process, instantiated on each memory it sorts in; every routine takes
// byte addresses in that memory.
//
// A radix pass reads the keys in order and writes each to its digit's next
// place: stable, so the passes from the lowest digit up leave the keys
// sorted. One read first counts every pass's digits; a pass whose digit is
// the same for every key moves nothing and is skipped (the high bytes of
// narrow integers, the exponent of data in a narrow range). Positions
// (argsort) travel with their keys. Lines of a few elements are sorted by
// insertion, where a pass's table would cost more than the line. Selection
// (select-module.ts) works on the same keys.
import { ModuleBuilder } from '../encode/module-builder.js';
import type { Local } from '../encode/function-builder.js';
import { WASM32_MAX_PAGES } from '../heap/constants.js';
import { ZERO, forUp } from './emit-loops.js';
import { KINDS, addressOf, emitFix, emitKeys, emitValues } from './radix-keys.js';
import { emitSelect } from './select-module.js';
import { emitClassify } from './classify-module.js';
import { emitPrefixCount, emitPrefixGather } from './radix-select-module.js';
import { emitPlace } from './place-module.js';
import type { SortKind } from './radix-keys.js';
import { DIGIT_BITS, TABLE, digitAddress, inChunks, passesOf } from './radix-layout.js';
import type { DigitBits } from './radix-layout.js';
import { emitSortKernel, insertionKey, radixKey } from './sort-kernel.js';
import { emitBlockOffsets } from './long-sort-kernel.js';
import type { SortFunctions } from './sort-kernel.js';

/** count<width>_<bits>(keys, i0, i1, counts): every pass's digit counts of keys [i0, i1), added to counts. */
function emitCount(m: ModuleBuilder, width: 32 | 64, bits: DigitBits): number {
  const t = width === 64 ? 'i64' : 'i32';
  const kb = width / 8;
  const [index, f] = m.func(`count${width}_${bits}`, ['i32', 'i32', 'i32', 'i32'], [], false);
  const [keys, i0, i1, counts] = [f.param(0), f.param(1), f.param(2), f.param(3)];
  const at = f.local('i32');
  const key = f.local(t);
  const mask = (1 << bits) - 1;
  f.block().loop();
  f.op('local.get', i0).op('local.get', i1).op('i32.ge_u').op('br_if', 1);
  addressOf(f, keys, i0, kb);
  f.mem(`${t}.load`).op('local.set', key);
  for (let p = 0; p < passesOf(width, bits); p++) {
    digitAddress(f, t, key, p * bits, mask, () => { f.op('local.get', counts).op('i32.const', p * TABLE * 4).op('i32.add'); });
    f.op('local.tee', at).op('local.get', at).mem('i32.load').op('i32.const', 1).op('i32.add').mem('i32.store');
  }
  f.op('local.get', i0).op('i32.const', 1).op('i32.add').op('local.set', i0).op('br', 0);
  f.end().end();
  return index;
}

/**
 * count_pass<width>(keys, i0, i1, table, shift): one pass's digit counts (an
 * 11-bit digit at `shift`) of keys [i0, i1), added to table; the long sort
 * counts a pass at a time (long-sort-kernel.ts), the keys having moved since
 * count<width>_11 counted every pass.
 */
function emitCountPass(m: ModuleBuilder, width: 32 | 64): number {
  const t = width === 64 ? 'i64' : 'i32';
  const [index, f] = m.func(`count_pass${width}`, ['i32', 'i32', 'i32', 'i32', 'i32'], [], false);
  const [keys, i0, i1, table, shift] = [f.param(0), f.param(1), f.param(2), f.param(3), f.param(4)];
  const at = f.local('i32');
  const key = f.local(t);
  forUp(f, i0, i0, i1, () => {
    addressOf(f, keys, i0, width / 8);
    f.mem(`${t}.load`).op('local.set', key);
    digitAddress(f, t, key, { local: shift }, TABLE - 1, table);
    f.op('local.tee', at).op('local.get', at).mem('i32.load').op('i32.const', 1).op('i32.add').mem('i32.store');
  });
  return index;
}

/**
 * scatter<width>_<bits>[_idx](from, to, i0, i1, table, shift[, fromIdx, toIdx]):
 * moves keys [i0, i1) of `from` (and their positions) each to its digit's next
 * place in `to`, the places kept in the pass's table.
 */
function emitScatter(m: ModuleBuilder, width: 32 | 64, bits: DigitBits, withIndex: boolean): number {
  const t = width === 64 ? 'i64' : 'i32';
  const kb = width / 8;
  const params = withIndex ? ['i32', 'i32', 'i32', 'i32', 'i32', 'i32', 'i32', 'i32'] as const : ['i32', 'i32', 'i32', 'i32', 'i32', 'i32'] as const;
  const [index, f] = m.func(`scatter${width}_${bits}${withIndex ? '_idx' : ''}`, params, [], false);
  const [from, to, i0, i1, table, shift] = [f.param(0), f.param(1), f.param(2), f.param(3), f.param(4), f.param(5)];
  const fromIdx = withIndex ? f.param(6) : undefined;
  const toIdx = withIndex ? f.param(7) : undefined;
  const [at, c] = [f.local('i32'), f.local('i32')];
  const key = f.local(t);
  f.block().loop();
  f.op('local.get', i0).op('local.get', i1).op('i32.ge_u').op('br_if', 1);
  addressOf(f, from, i0, kb);
  f.mem(`${t}.load`).op('local.set', key);
  digitAddress(f, t, key, { local: shift }, (1 << bits) - 1, table);
  f.op('local.tee', at).mem('i32.load').op('local.set', c);
  f.op('local.get', at).op('local.get', c).op('i32.const', 1).op('i32.add').mem('i32.store');
  addressOf(f, to, c, kb);
  f.op('local.get', key).mem(`${t}.store`);
  if (fromIdx !== undefined && toIdx !== undefined) {
    addressOf(f, toIdx, c, 4);
    addressOf(f, fromIdx, i0, 4);
    f.mem('i32.load').mem('i32.store');
  }
  f.op('local.get', i0).op('i32.const', 1).op('i32.add').op('local.set', i0).op('br', 0);
  f.end().end();
  return index;
}

/**
 * radix<width>_<bits>[_idx](keys, tmp, n, counts[, idx, tmpIdx]) -> i32:
 * sorts n keys (and their positions, which the _idx form starts at 0..n-1),
 * stable; returns 0 if the sorted keys (and positions) lie in keys (idx),
 * 1 if in tmp (tmpIdx). counts: countsBytes(width) of scratch.
 */
function emitRadix(m: ModuleBuilder, width: 32 | 64, bits: DigitBits, withIndex: boolean, count: number, scatter: number): number {
  const t = width === 64 ? 'i64' : 'i32';
  const passes = passesOf(width, bits);
  const mask = (1 << bits) - 1;
  const params = withIndex ? ['i32', 'i32', 'i32', 'i32', 'i32', 'i32'] as const : ['i32', 'i32', 'i32', 'i32'] as const;
  const [index, f] = m.func(`radix${width}_${bits}${withIndex ? '_idx' : ''}`, params, ['i32']);
  const [keys, tmp, n, counts] = [f.param(0), f.param(1), f.param(2), f.param(3)];
  const idx = withIndex ? f.param(4) : undefined;
  const tmpIdx = withIndex ? f.param(5) : undefined;
  const i32 = (): Local => f.local('i32');
  const [i, i1, at, sum, c, from, to, fromIdx, toIdx, swap, parity] = [i32(), i32(), i32(), i32(), i32(), i32(), i32(), i32(), i32(), i32(), i32()];
  const key = f.local(t);
  f.op('local.get', counts).op('i32.const', 0).op('i32.const', passes * TABLE * 4).op('memory.fill');
  if (idx !== undefined) forUp(f, i, ZERO, n, () => { addressOf(f, idx, i, 4); f.op('local.get', i).mem('i32.store'); });
  inChunks(f, n, i, i1, () => { f.op('local.get', keys).op('local.get', i).op('local.get', i1).op('local.get', counts).op('call', count); });
  f.op('local.get', keys).op('local.set', from).op('local.get', tmp).op('local.set', to);
  if (idx !== undefined) f.op('local.get', idx).op('local.set', fromIdx).op('local.get', tmpIdx!).op('local.set', toIdx);
  f.block();
  // No keys: nothing to sort (and no first key to read).
  f.op('local.get', n).op('i32.eqz').op('br_if', 0);
  for (let p = 0; p < passes; p++) {
    const table = (): void => { f.op('local.get', counts).op('i32.const', p * TABLE * 4).op('i32.add'); };
    f.block();
    // A digit every key shares: the pass would move nothing.
    f.op('local.get', from).mem(`${t}.load`).op('local.set', key);
    digitAddress(f, t, key, p * bits, mask, table);
    f.mem('i32.load').op('local.get', n).op('i32.eq').op('br_if', 0);
    // Counts to starting places.
    f.op('i32.const', 0).op('local.set', sum);
    f.op('i32.const', 0).op('local.set', i);
    f.block().loop();
    f.op('local.get', i).op('i32.const', mask + 1).op('i32.ge_u').op('br_if', 1);
    f.op('local.get', i).op('i32.const', 2).op('i32.shl');
    table();
    f.op('i32.add').op('local.tee', at);
    f.mem('i32.load').op('local.set', c);
    f.op('local.get', at).op('local.get', sum).mem('i32.store');
    f.op('local.get', sum).op('local.get', c).op('i32.add').op('local.set', sum);
    f.op('local.get', i).op('i32.const', 1).op('i32.add').op('local.set', i).op('br', 0);
    f.end().end();
    inChunks(f, n, i, i1, () => {
      f.op('local.get', from).op('local.get', to).op('local.get', i).op('local.get', i1);
      table();
      f.op('i32.const', p * bits);
      if (idx !== undefined) f.op('local.get', fromIdx).op('local.get', toIdx);
      f.op('call', scatter);
    });
    const swapLocals = (a: Local, b: Local): void => {
      f.op('local.get', a).op('local.set', swap).op('local.get', b).op('local.set', a).op('local.get', swap).op('local.set', b);
    };
    swapLocals(from, to);
    if (idx !== undefined) swapLocals(fromIdx, toIdx);
    f.op('local.get', parity).op('i32.const', 1).op('i32.xor').op('local.set', parity);
    f.end();
  }
  f.end();
  f.op('local.get', parity);
  return index;
}

/**
 * insertion<width>[_idx](keys, n[, idx]): sorts n keys in place by insertion,
 * stable (the _idx form starts positions at 0..n-1 and moves them with their keys).
 */
function emitInsertion(m: ModuleBuilder, width: 32 | 64, withIndex: boolean): number {
  const wide = width === 64;
  const t = wide ? 'i64' : 'i32';
  const kb = wide ? 8 : 4;
  const params = withIndex ? ['i32', 'i32', 'i32'] as const : ['i32', 'i32'] as const;
  const [index, f] = m.func(`insertion${width}${withIndex ? '_idx' : ''}`, params, []);
  const [keys, n] = [f.param(0), f.param(1)];
  const idx = withIndex ? f.param(2) : undefined;
  const [i, j, pos] = [f.local('i32'), f.local('i32'), f.local('i32')];
  const key = f.local(t);
  const prev = f.local(t);
  if (idx !== undefined) forUp(f, i, ZERO, n, () => { addressOf(f, idx, i, 4); f.op('local.get', i).mem('i32.store'); });
  f.op('i32.const', 1).op('local.set', i);
  f.block().loop();
  f.op('local.get', i).op('local.get', n).op('i32.ge_u').op('br_if', 1);
  addressOf(f, keys, i, kb);
  f.mem(`${t}.load`).op('local.set', key);
  if (idx !== undefined) { addressOf(f, idx, i, 4); f.mem('i32.load').op('local.set', pos); }
  f.op('local.get', i).op('local.set', j);
  // Shift the larger keys up one place; an equal key stays before (stable).
  f.block().loop();
  f.op('local.get', j).op('i32.eqz').op('br_if', 1);
  addressOf(f, keys, j, kb);
  f.op('i32.const', kb).op('i32.sub').mem(`${t}.load`).op('local.tee', prev).op('local.get', key).op(`${t}.le_u`).op('br_if', 1);
  addressOf(f, keys, j, kb);
  f.op('local.get', prev).mem(`${t}.store`);
  if (idx !== undefined) {
    addressOf(f, idx, j, 4);
    addressOf(f, idx, j, 4);
    f.op('i32.const', 4).op('i32.sub').mem('i32.load').mem('i32.store');
  }
  f.op('local.get', j).op('i32.const', 1).op('i32.sub').op('local.set', j).op('br', 0);
  f.end().end();
  addressOf(f, keys, j, kb);
  f.op('local.get', key).mem(`${t}.store`);
  if (idx !== undefined) { addressOf(f, idx, j, 4); f.op('local.get', pos).mem('i32.store'); }
  f.op('local.get', i).op('i32.const', 1).op('i32.add').op('local.set', i).op('br', 0);
  f.end().end();
  return index;
}

/** The sorting module's bytes, importing `env.memory` (shared or not, as the heap's memory is). */
function buildSortModule(shared: boolean): Uint8Array<ArrayBuffer> {
  const m = new ModuleBuilder().importMemory({ module: 'env', name: 'memory', initial: 1, maximum: WASM32_MAX_PAGES, shared });
  const fns: SortFunctions = {
    keys: new Map(), values: new Map(), fix: new Map(), radix: new Map(), insertion: new Map(), select: new Map(),
    count: new Map(), countPass: new Map(), scatter: new Map(),
  };
  for (const k of KINDS) {
    fns.keys.set(k.name, emitKeys(m, k));
    fns.values.set(k.name, emitValues(m, k));
    if (k.float) fns.fix.set(k.name, emitFix(m, k));
  }
  for (const width of [32, 64] as const) {
    for (const bits of DIGIT_BITS) {
      const count = emitCount(m, width, bits);
      fns.count.set(radixKey(width, bits, false), count);
      for (const withIndex of [false, true]) {
        const scatter = emitScatter(m, width, bits, withIndex);
        fns.scatter.set(radixKey(width, bits, withIndex), scatter);
        fns.radix.set(radixKey(width, bits, withIndex), emitRadix(m, width, bits, withIndex, count, scatter));
      }
    }
    const insertion = emitInsertion(m, width, false);
    fns.insertion.set(insertionKey(width, false), insertion);
    fns.select.set(width, emitSelect(m, width, insertion));
    fns.insertion.set(insertionKey(width, true), emitInsertion(m, width, true));
    fns.countPass.set(width, emitCountPass(m, width));
    emitClassify(m, width);
    emitPrefixCount(m, width);
    emitPrefixGather(m, width);
  }
  for (const bytes of [1, 2, 4, 8, 'idx'] as const) emitPlace(m, bytes);
  emitBlockOffsets(m);
  emitSortKernel(m, fns);
  return m.toBytes();
}

export { buildSortModule };
export type { SortKind };
