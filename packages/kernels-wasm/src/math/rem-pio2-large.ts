// Payne-Hanek reduction of a huge |x| (past the Cody-Waite bound of
// rem-pio2.ts, up to the largest double) modulo pi/2, as a scalar helper
// the vector code calls once per lane that needs it. It returns
// (y0, y1, n) with x = n*pi/2 + y0 + y1, |y0 + y1| <= pi/4, the y parts a
// double-double accurate to ~2^-100 relative, and n mod 4 right.
//
// Method (Payne & Hanek 1983; the digit layout of fdlibm's k_rem_pio2.c):
// x = M * 2^e with M a 53-bit integer. With 2/pi = sum_i c_i 2^(-24(i+1)),
// x*2/pi = sum_i M c_i 2^(e - 24(i+1)); the terms whose weight is >= 4 are
// multiples of 4 and cannot change n mod 4 or the fraction, so only ten
// digits c_i0 .. c_i0+9 matter, i0 = floor((e-2)/24). Writing
// M' = M * 2^(e - 24 i0) (< 2^78) in four base-2^24 digits, the product
// M' * 0.c_i0 c_i0+1 ... is a schoolbook multiplication in exact i64
// column sums (each < 2^50) with carries. Truncating 2/pi after ten digits
// errs by < 2^78 * 2^-240, far below the 2^-125 needed when x lies as close
// to a multiple of pi/2 as any double can (~2^-61, Muller's worst case).
// The fraction is rounded to nearest (n += 1 and the digits complemented when
// it is >= 1/2, which avoids cancellation), summed into a double-double
// exactly enough, and multiplied by pi/2 with Dekker's product.
import type { FunctionBuilder, Local } from '../encode/function-builder.js';
import type { ModuleBuilder } from '../encode/module-builder.js';
import { pio2Parts, twoOverPiDigits } from './two-over-pi.js';
import { at } from '../internal-error.js';

const DIGITS = 10;
/** Digits of 2/pi indexed from -2 (zeros: 2/pi < 1) up to the highest i0 + 9 a double can ask for. */
const FIRST_INDEX = -2;
const LAST_INDEX = 40 + DIGITS - 1; // e <= 971 gives i0 <= 40
const MASK = 0xffffffn;

/** (param i32 i) (result i64): digit i of 2/pi in base 2^24, 0 for i < 0; a br_table over constants. */
function defineDigitTable(m: ModuleBuilder): number {
  const digits = twoOverPiDigits(LAST_INDEX + 1);
  const table = [...Array<number>(-FIRST_INDEX).fill(0), ...digits];
  const [index, f] = m.func('math.two_over_pi_digit', ['i32'], ['i64'], false);
  for (let k = 0; k < table.length; k++) f.block();
  f.op('local.get', f.param(0)).op('i32.const', -FIRST_INDEX).op('i32.add');
  f.brTable(table.map((_, k) => k), table.length - 1);
  for (const d of table) f.end().op('i64.const', d).op('return');
  f.op('unreachable');
  return index;
}

/** Scalar helpers over a FunctionBuilder, so the transcription below stays readable. */
class Scalar {
  constructor(readonly f: FunctionBuilder) {}

  set(type: 'i32' | 'i64' | 'f64', emit: () => void): Local {
    emit();
    const l = this.f.local(type);
    this.op('local.set', l);
    return l;
  }

  get(l: Local): this {
    this.op('local.get', l);
    return this;
  }

  op(name: string, ...imm: Array<number | bigint>): this {
    this.f.op(name, ...imm);
    return this;
  }

  /** Knuth's TwoSum of two f64 locals: [s, err]. */
  twoSum(a: Local, b: Local): [Local, Local] {
    const f = this.f;
    const s = this.set('f64', () => this.get(a).get(b).op('f64.add'));
    const bb = this.set('f64', () => this.get(s).get(a).op('f64.sub'));
    const err = this.set('f64', () => {
      this.get(a).get(s).get(bb);
      f.op('f64.sub').op('f64.sub');
      this.get(b).get(bb);
      f.op('f64.sub').op('f64.add');
    });
    return [s, err];
  }

  /** Veltkamp split into 26-bit halves. */
  split(a: Local): [Local, Local] {
    const c = this.set('f64', () => this.get(a).op('f64.const', 134217729).op('f64.mul'));
    const hi = this.set('f64', () => this.get(c).get(c).get(a).op('f64.sub').op('f64.sub'));
    const lo = this.set('f64', () => this.get(a).get(hi).op('f64.sub'));
    return [hi, lo];
  }
}

/** (param f64 x) (result f64 f64 i32): y0, y1, n for finite |x| >= 2^20. */
function defineRemPio2Large(m: ModuleBuilder, digitFn: number): number {
  const [index, f] = m.func('math.rem_pio2_large', ['f64'], ['f64', 'f64', 'i32'], false);
  const S = new Scalar(f);
  const x = f.param(0);
  const bits = S.set('i64', () => S.get(x).op('i64.reinterpret_f64'));
  const { mDigits, d } = factors(S, bits, digitFn);
  const { D, nLow } = fractionDigits(S, mDigits, d);
  const { fh, fl, half } = roundedFraction(S, D);
  const [y0, y1] = timesPio2(S, fh, fl);
  // Signs: x < 0 mirrors everything; a rounded-up fraction negates y.
  const neg = S.set('i32', () => S.get(bits).op('i64.const', 0).op('i64.lt_s'));
  const flipY = S.set('i32', () => S.get(neg).get(half).op('i32.xor'));
  const signed = (v: Local): void => { S.get(v).op('f64.neg'); S.get(v).get(flipY).op('select'); };
  signed(y0);
  signed(y1);
  const n = S.set('i32', () => S.get(nLow).get(half).op('i32.add'));
  S.op('i32.const', 0).get(n).op('i32.sub').get(n).get(neg).op('select');
  return index;
}

/** The multiplication's factors: M' in four base-2^24 digits, and the DIGITS digits of 2/pi from i0 (by `digitFn`). */
function factors(S: Scalar, bits: Local, digitFn: number): { mDigits: Local[]; d: Local[] } {
  const M = S.set('i64', () => S.get(bits).op('i64.const', 0xfffffffffffffn).op('i64.and').op('i64.const', 1n << 52n).op('i64.or'));
  const e = S.set('i32', () => S.get(bits).op('i64.const', 52).op('i64.shr_u').op('i32.wrap_i64')
    .op('i32.const', 0x7ff).op('i32.and').op('i32.const', 1075).op('i32.sub'));
  // floor((e-2)/24) with unsigned division: e + 46 >= 0 for |x| >= 2^6.
  const i0 = S.set('i32', () => S.get(e).op('i32.const', 46).op('i32.add').op('i32.const', 24).op('i32.div_u')
    .op('i32.const', 2).op('i32.sub'));
  const s = S.set('i64', () => S.get(e).get(i0).op('i32.const', 24).op('i32.mul').op('i32.sub').op('i64.extend_i32_u'));
  // M' = M << s (s in [2, 25]) in base-2^24 digits; the wrapping i64 shift keeps every bit below 2^64.
  const m0 = S.set('i64', () => S.get(M).get(s).op('i64.shl').op('i64.const', MASK).op('i64.and'));
  const m1 = S.set('i64', () => S.get(M).get(s).op('i64.shl').op('i64.const', 24).op('i64.shr_u').op('i64.const', MASK).op('i64.and'));
  const m2 = S.set('i64', () => S.get(M).op('i64.const', 48).get(s).op('i64.sub').op('i64.shr_u').op('i64.const', MASK).op('i64.and'));
  // M >> (72 - s) in two steps: wasm takes shift counts mod 64, and 72 - s can exceed 63.
  const m3 = S.set('i64', () => S.get(M).op('i64.const', 24).op('i64.shr_u').op('i64.const', 48).get(s).op('i64.sub').op('i64.shr_u'));
  const d = Array.from({ length: DIGITS }, (_, j) => S.set('i64', () => S.get(i0).op('i32.const', j).op('i32.add').op('call', digitFn)));
  return { mDigits: [m0, m1, m2, m3], d };
}

/** The product's fraction digits D (D[k-1] of weight 2^(-24k)) by column sums with carries, and n mod 4 from the column above. */
function fractionDigits(S: Scalar, mDigits: readonly Local[], d: readonly Local[]): { D: Local[]; nLow: Local } {
  const f = S.f;
  // Column p (weight 2^(24p)) of M' * 0.d0 d1 ... for p = -DIGITS .. 0; higher columns are multiples of 4.
  const column = (p: number): void => {
    let terms = 0;
    for (let a = 0; a < 4; a++) {
      const j = a - p - 1;
      if (j < 0 || j >= DIGITS) continue;
      S.get(at(mDigits, a, 'digit')).get(at(d, j, 'digit')).op('i64.mul');
      if (terms++ > 0) f.op('i64.add');
    }
  };
  const carry = S.set('i64', () => f.op('i64.const', 0));
  const D: Local[] = [];
  for (let p = -DIGITS; p <= -1; p++) {
    const v = S.set('i64', () => { column(p); S.get(carry).op('i64.add'); });
    D[-p - 1] = S.set('i64', () => S.get(v).op('i64.const', MASK).op('i64.and'));
    S.get(v).op('i64.const', 24).op('i64.shr_u').op('local.set', carry);
  }
  const nLow = S.set('i32', () => { column(0); S.get(carry).op('i64.add').op('i32.wrap_i64').op('i32.const', 3).op('i32.and'); });
  return { D, nLow };
}

/**
 * The fraction rounded to nearest (a fraction >= 1/2 becomes -(1 - fraction),
 * whose digits are the complements; `half` says so) as a double-double fh + fl.
 */
function roundedFraction(S: Scalar, D: readonly Local[]): { fh: Local; fl: Local; half: Local } {
  const f = S.f;
  const half = S.set('i32', () => S.get(at(D, 0, 'digit')).op('i64.const', 23).op('i64.shr_u').op('i32.wrap_i64'));
  const flip = S.set('i64', () => S.op('i64.const', 0).get(half).op('i64.extend_i32_u').op('i64.sub').op('i64.const', MASK).op('i64.and'));
  // Sum the digits smallest first; every term is >= 0, so the double-double keeps ~2^-104 relative accuracy.
  let hi = S.set('f64', () => f.op('f64.const', 0));
  let lo = S.set('f64', () => f.op('f64.const', 0));
  for (let k = DIGITS; k >= 1; k--) {
    const t = S.set('f64', () => S.get(at(D, k - 1, 'digit')).get(flip).op('i64.xor').op('f64.convert_i64_u')
      .op('f64.const', 2 ** (-24 * k)).op('f64.mul'));
    const [sum, err] = S.twoSum(hi, t);
    lo = S.set('f64', () => S.get(lo).get(err).op('f64.add'));
    hi = sum;
  }
  const fh = S.set('f64', () => S.get(hi).get(lo).op('f64.add'));
  const fl = S.set('f64', () => S.get(lo).get(fh).get(hi).op('f64.sub').op('f64.sub'));
  return { fh, fl, half };
}

/** (fh + fl) * pi/2 by Dekker's product, pi/2 = P0 + P1 as a double-double: [y0, y1]. */
function timesPio2(S: Scalar, fh: Local, fl: Local): [Local, Local] {
  const f = S.f;
  const parts = pio2Parts([0, 0]);
  const P0 = at(parts, 0, 'part of pi/2');
  const P1 = at(parts, 1, 'part of pi/2');
  const p = S.set('f64', () => S.get(fh).op('f64.const', P0).op('f64.mul'));
  const [ah, al] = S.split(fh);
  const bc = S.set('f64', () => f.op('f64.const', P0));
  const [bh, bl] = S.split(bc);
  const err = S.set('f64', () => {
    S.get(ah).get(bh).op('f64.mul'); S.get(p).op('f64.sub');
    S.get(ah).get(bl).op('f64.mul').op('f64.add');
    S.get(al).get(bh).op('f64.mul').op('f64.add');
    S.get(al).get(bl).op('f64.mul').op('f64.add');
    S.get(fh).op('f64.const', P1).op('f64.mul').op('f64.add');
    S.get(fl).op('f64.const', P0).op('f64.mul').op('f64.add');
  });
  const y0 = S.set('f64', () => S.get(p).get(err).op('f64.add'));
  const y1 = S.set('f64', () => S.get(err).get(y0).get(p).op('f64.sub').op('f64.sub'));
  return [y0, y1];
}

function defineRemPio2LargeWithTable(m: ModuleBuilder): number {
  return defineRemPio2Large(m, defineDigitTable(m));
}

export { defineRemPio2LargeWithTable as defineRemPio2Large, defineDigitTable };
