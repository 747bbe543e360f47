// The radix sort's sizes (radix-module.ts), shared with the sorting
// module's pool kernel (sort-kernel.ts): digit widths, count tables, and the
// spans its passes run in.
import type { FunctionBuilder, Local } from '../encode/function-builder.js';

/** Digit widths a radix sort is built for: 8 bits for short lines (a small table to clear and sum), 11 for long. */
const DIGIT_BITS = [8, 11] as const;
type DigitBits = (typeof DIGIT_BITS)[number];

/** Counts per pass, whatever the digit: the table of an 11-bit digit. */
const TABLE = 1 << 11;

const passesOf = (width: 32 | 64, bits: DigitBits): number => Math.ceil(width / bits);
/** Bytes of the counts a radix sort of `width`-bit keys needs, for either digit. */
const countsBytes = (width: 32 | 64): number => Math.max(...DIGIT_BITS.map((b) => passesOf(width, b))) * TABLE * 4;

/**
 * Elements per call of a pass's inner function. V8 runs a function's first
 * call in its baseline tier and the optimised code from the next call on: a
 * pass made of many calls moves to the fast code as soon as it is ready,
 * where one call over a long line would run it all in the slow one.
 */
const CHUNK = 1 << 15;

/**
 * Emits `for (i0 = from; i0 < n; i0 += CHUNK) call(i0, min(i0 + CHUNK, n))`
 * (`from` 0, or a local); `call` pushes the rest and calls.
 */
function inChunks(f: FunctionBuilder, n: Local, i0: Local, i1: Local, call: () => void, from?: Local): void {
  if (from === undefined) f.op('i32.const', 0);
  else f.op('local.get', from);
  f.op('local.set', i0);
  f.block().loop();
  f.op('local.get', i0).op('local.get', n).op('i32.ge_u').op('br_if', 1);
  f.op('local.get', i0).op('i32.const', CHUNK).op('i32.add').op('local.tee', i1).op('local.get', n)
    .op('local.get', i1).op('local.get', n).op('i32.lt_u').op('select').op('local.set', i1);
  call();
  f.op('local.get', i1).op('local.set', i0).op('br', 0);
  f.end().end();
}

/** Lines this short are sorted by insertion: a radix sort's tables would cost more than the line. */
const INSERTION = 32;
/** From this length on, 11-bit digits (fewer passes, larger tables); 8-bit below. */
const WIDE_DIGITS = 1 << 14;

/**
 * Pushes the digit of `key` (a local of `t`) shifted right by `shift` bits (a
 * constant, or the local `shift.local`), times 4, plus the table's address.
 */
function digitAddress(f: FunctionBuilder, t: 'i32' | 'i64', key: Local, shift: number | { readonly local: Local }, mask: number, table: Local | (() => void)): void {
  f.op('local.get', key);
  if (typeof shift === 'number') {
    if (shift > 0) f.op(`${t}.const`, shift).op(`${t}.shr_u`);
  } else {
    f.op('local.get', shift.local);
    if (t === 'i64') f.op('i64.extend_i32_u');
    f.op(`${t}.shr_u`);
  }
  if (t === 'i64') f.op('i32.wrap_i64');
  f.op('i32.const', mask).op('i32.and').op('i32.const', 2).op('i32.shl');
  if (typeof table === 'function') table();
  else f.op('local.get', table);
  f.op('i32.add');
}

export { CHUNK, DIGIT_BITS, INSERTION, TABLE, WIDE_DIGITS, countsBytes, digitAddress, inChunks, passesOf };
export type { DigitBits };
