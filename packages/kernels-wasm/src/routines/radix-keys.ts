// The radix sort's keys (radix-module.ts): how each element kind becomes an
// unsigned key whose order is NumPy's (every NaN after everything, -0 equal
// to +0) and back, and the pass that puts the zeros' and NaNs' own bits back.
import type { ModuleBuilder } from '../encode/module-builder.js';
import type { FunctionBuilder, Local } from '../encode/function-builder.js';
import { ZERO, forUp } from './emit-loops.js';

/** How an element becomes a key: its width in memory, whether it is a float or signed, and the key's width. */
interface KeyKind {
  readonly name: SortKind;
  readonly bytes: 1 | 2 | 4 | 8;
  readonly float: boolean;
  readonly signed: boolean;
}

type SortKind = 'f64' | 'f32' | 'i64' | 'u64' | 'i32' | 'u32' | 'i16' | 'u16' | 'i8' | 'u8';

const KINDS: readonly KeyKind[] = [
  { name: 'f64', bytes: 8, float: true, signed: true },
  { name: 'f32', bytes: 4, float: true, signed: true },
  { name: 'i64', bytes: 8, float: false, signed: true },
  { name: 'u64', bytes: 8, float: false, signed: false },
  { name: 'i32', bytes: 4, float: false, signed: true },
  { name: 'u32', bytes: 4, float: false, signed: false },
  { name: 'i16', bytes: 2, float: false, signed: true },
  { name: 'u16', bytes: 2, float: false, signed: false },
  { name: 'i8', bytes: 1, float: false, signed: true },
  { name: 'u8', bytes: 1, float: false, signed: false },
];

const keyBits = (k: KeyKind): 32 | 64 => (k.bytes === 8 ? 64 : 32);

/** The kind of an element kind's name. */
const kindOf = (name: SortKind): KeyKind => KINDS.find((k) => k.name === name)!;

/** Pushes `base + i * bytes`. */
function addressOf(f: FunctionBuilder, base: Local, i: Local, bytes: number): void {
  f.op('local.get', base).op('local.get', i);
  if (bytes > 1) f.op('i32.const', Math.log2(bytes)).op('i32.shl');
  f.op('i32.add');
}

const LOAD: Record<number, Record<'s' | 'u', string>> = {
  1: { s: 'i32.load8_s', u: 'i32.load8_u' },
  2: { s: 'i32.load16_s', u: 'i32.load16_u' },
  4: { s: 'i32.load', u: 'i32.load' },
  8: { s: 'i64.load', u: 'i64.load' },
};
const STORE: Record<number, string> = { 1: 'i32.store8', 2: 'i32.store16', 4: 'i32.store', 8: 'i64.store' };

/**
 * keys_<kind>(src, keys, i0, i1, res): the keys of elements [i0, i1). A
 * float's key orders as NumPy compares: its bits made unsigned-ordered, -0
 * given +0's key and every NaN the largest; for floats, the span's
 * [negatives, zeros, NaNs] are added to the i32s at res (where their runs lie
 * once sorted). Called in spans, as the radix passes are (see CHUNK).
 */
function emitKeys(m: ModuleBuilder, k: KeyKind): number {
  const wide = keyBits(k) === 64;
  const t = wide ? 'i64' : 'i32';
  const [index, f] = m.func(`keys_${k.name}`, ['i32', 'i32', 'i32', 'i32', 'i32'], []);
  const [src, keys, i0, n, res] = [f.param(0), f.param(1), f.param(2), f.param(3), f.param(4)];
  const i = f.local('i32');
  const v = f.local(wide ? 'i64' : 'i32');
  const [neg, zero, nan] = [f.local('i32'), f.local('i32'), f.local('i32')];
  const keyBytes = wide ? 8 : 4;
  const top = wide ? -(2n ** 63n) : -(2 ** 31);
  const tconst = (x: number | bigint): void => { f.op(`${t}.const`, x); };
  forUp(f, i, i0, n, () => {
    addressOf(f, keys, i, keyBytes);
    addressOf(f, src, i, k.bytes);
    f.mem(LOAD[k.bytes]![k.signed ? 's' : 'u']!).op('local.set', v);
    if (k.float) {
      const ft = wide ? 'f64' : 'f32';
      // NaN: the largest key.
      f.op('local.get', v).op(`${ft}.reinterpret_${t}`).op('local.get', v).op(`${ft}.reinterpret_${t}`).op(`${ft}.ne`);
      f.if(t);
      tconst(-1);
      f.op('local.get', nan).op('i32.const', 1).op('i32.add').op('local.set', nan);
      f.else();
      // A zero of either sign: +0's key.
      f.op('local.get', v).op(`${t}.const`, 1).op(`${t}.shl`).op(`${t}.eqz`);
      f.if(t);
      tconst(top);
      f.op('local.get', zero).op('i32.const', 1).op('i32.add').op('local.set', zero);
      f.else();
      // Negative: every bit flipped; positive: the sign bit set.
      f.op('local.get', neg).op('local.get', v).op(`${t}.const`, wide ? 63 : 31).op(`${t}.shr_u`);
      if (wide) f.op('i32.wrap_i64');
      f.op('i32.add').op('local.set', neg);
      f.op('local.get', v).op('local.get', v).op(`${t}.const`, wide ? 63 : 31).op(`${t}.shr_s`);
      tconst(top);
      f.op(`${t}.or`).op(`${t}.xor`);
      f.end().end();
    } else {
      f.op('local.get', v);
      if (k.signed) {
        if (wide) f.op('i64.const', top).op('i64.xor');
        else f.op('i32.const', top).op('i32.xor');
      }
    }
    f.mem(wide ? 'i64.store' : 'i32.store');
  });
  if (k.float) {
    [neg, zero, nan].forEach((count, j) => {
      f.op('local.get', res).op('local.get', res).mem('i32.load', { offset: 4 * j }).op('local.get', count).op('i32.add').mem('i32.store', { offset: 4 * j });
    });
  }
  return index;
}

/**
 * values_<kind>(keys, dst, i0, i1): elements [i0, i1) back from their keys. A float
 * comes back as +0 for a zero and one NaN for every NaN; fix_<kind> writes
 * their own bits.
 */
function emitValues(m: ModuleBuilder, k: KeyKind): number {
  const wide = keyBits(k) === 64;
  const t = wide ? 'i64' : 'i32';
  const top = wide ? -(2n ** 63n) : -(2 ** 31);
  const [index, f] = m.func(`values_${k.name}`, ['i32', 'i32', 'i32', 'i32'], []);
  const [keys, dst, i0, n] = [f.param(0), f.param(1), f.param(2), f.param(3)];
  const i = f.local('i32');
  const key = f.local(wide ? 'i64' : 'i32');
  forUp(f, i, i0, n, () => {
    addressOf(f, dst, i, k.bytes);
    addressOf(f, keys, i, wide ? 8 : 4);
    f.mem(wide ? 'i64.load' : 'i32.load');
    if (k.float) {
      // Sign bit set: it was positive (clear it); clear: it was negative (flip every bit back).
      f.op('local.tee', key).op('local.get', key).op(`${t}.const`, wide ? 63 : 31).op(`${t}.shr_s`);
      f.op(`${t}.const`, -1).op(`${t}.xor`).op(`${t}.const`, top).op(`${t}.or`).op(`${t}.xor`);
    } else if (k.signed) {
      f.op(`${t}.const`, top).op(`${t}.xor`);
    }
    f.mem(STORE[k.bytes]!);
  });
  return index;
}

/**
 * fix_<kind>(src, dst, n, res): writes the zeros and NaNs of src, in their
 * order there, over their runs in the sorted dst (res as keys_ wrote it).
 */
function emitFix(m: ModuleBuilder, k: KeyKind): number {
  const wide = k.bytes === 8;
  const t = wide ? 'i64' : 'i32';
  const ft = wide ? 'f64' : 'f32';
  const [index, f] = m.func(`fix_${k.name}`, ['i32', 'i32', 'i32', 'i32'], []);
  const [src, dst, n, res] = [f.param(0), f.param(1), f.param(2), f.param(3)];
  const i = f.local('i32');
  const v = f.local(t);
  const [z, q] = [f.local('i32'), f.local('i32')];
  f.op('local.get', res).mem('i32.load', { offset: 0 }).op('local.set', z);
  f.op('local.get', n).op('local.get', res).mem('i32.load', { offset: 8 }).op('i32.sub').op('local.set', q);
  forUp(f, i, ZERO, n, () => {
    addressOf(f, src, i, k.bytes);
    f.mem(`${t}.load`).op('local.set', v);
    f.op('local.get', v).op(`${t}.const`, 1).op(`${t}.shl`).op(`${t}.eqz`);
    f.if();
    addressOf(f, dst, z, k.bytes);
    f.op('local.get', v).mem(`${t}.store`);
    f.op('local.get', z).op('i32.const', 1).op('i32.add').op('local.set', z);
    f.else();
    f.op('local.get', v).op(`${ft}.reinterpret_${t}`).op('local.get', v).op(`${ft}.reinterpret_${t}`).op(`${ft}.ne`);
    f.if();
    addressOf(f, dst, q, k.bytes);
    f.op('local.get', v).mem(`${t}.store`);
    f.op('local.get', q).op('i32.const', 1).op('i32.add').op('local.set', q);
    f.end();
    f.end();
  });
  return index;
}

export { KINDS, keyBits, kindOf, addressOf, emitKeys, emitValues, emitFix };
export type { KeyKind, SortKind };
