// Integer floor division, modulo, C's remainder and gcd, as NumPy computes them, in the
// scalar loop: at i32 width for every type up to 32 bits (held as the scalar
// loop holds them), at i64 for int64 and uint64. The lane forms up to 32
// bits are int-divmod-lanes.ts's, float floorDivide and mod float-divmod.ts's.
import type { Local } from '../encode/index.js';
import { is64K, isUnsignedK, wrapInt } from './context.js';
import type { EmitContext } from './context.js';
import { bumpDivide } from './emit-values.js';
import type { KType } from './kernel-spec.js';

/** Integer instructions at one width: i32 for every type up to 32 bits, i64 for int64 and uint64. */
interface IntWidth {
  readonly w: 'i32' | 'i64';
  /** Pushes the constant v at this width. */
  readonly k: (v: number | bigint) => void;
  /** Pushes x != 0 as a select's condition: x itself at i32, a test at i64. */
  readonly nonzero: (x: Local) => void;
}

function intWidth(ctx: EmitContext, t: KType): IntWidth {
  const f = ctx.f;
  const w = is64K(t) ? 'i64' : 'i32';
  return {
    w,
    k: (v) => { if (w === 'i64') f.op('i64.const', BigInt(v)); else f.op('i32.const', Number(v)); },
    nonzero: (x) => { f.op('local.get', x); if (w === 'i64') f.op('i64.eqz').op('i32.eqz'); },
  };
}

/**
 * NumPy's integer floor division and Python-style modulo. Division by zero
 * gives 0 and is flagged; MIN // -1 wraps to MIN. The divisor is made safe
 * first, since WebAssembly's div_s traps on both.
 */
function intDivision(ctx: EmitContext, t: KType, fn: 'floorDivide' | 'mod', a: Local, b: Local): void {
  const f = ctx.f;
  const { w, k, nonzero } = intWidth(ctx, t);
  const min = w === 'i64' ? -(2n ** 63n) : -2147483648;
  const safe = f.local(w);
  const r = f.local(w);
  f.op('local.get', b).op(`${w}.eqz`).if(); bumpDivide(ctx); f.end();
  // safe = (b == 0 || (a == MIN && b == -1)) ? 1 : b
  k(1); f.op('local.get', b);
  f.op('local.get', b).op(`${w}.eqz`);
  f.op('local.get', a); k(min); f.op(`${w}.eq`).op('local.get', b); k(-1); f.op(`${w}.eq`).op('i32.and');
  f.op('i32.or').op('select').op('local.set', safe);
  f.op('local.get', a).op('local.get', safe).op(`${w}.rem_s`).op('local.set', r);
  // The remainder and the divisor have different signs: floor is one lower, the modulo one divisor higher.
  const adjust = (): void => {
    f.op('local.get', r); k(0); f.op(`${w}.ne`);
    f.op('local.get', r); k(0); f.op(`${w}.lt_s`).op('local.get', b); k(0); f.op(`${w}.lt_s`).op('i32.ne');
    f.op('i32.and');
  };
  if (fn === 'mod') {
    f.op('local.get', r).op('local.get', b).op(`${w}.add`).op('local.get', r);
    adjust();
    f.op('select');
  } else {
    f.op('local.get', a).op('local.get', safe).op(`${w}.div_s`);
    adjust();
    if (w === 'i64') f.op('i64.extend_i32_u');
    f.op(`${w}.sub`);
    // a == MIN and b == -1 wraps to MIN, which a / 1 already is.
  }
  // Division by zero gives 0.
  k(0); nonzero(b); f.op('select');
}

/** Unsigned floor division and modulo: plain div_u/rem_u, with a zero divisor giving 0, flagged. */
function unsignedDivision(ctx: EmitContext, t: KType, fn: 'floorDivide' | 'mod', a: Local, b: Local): void {
  const f = ctx.f;
  const { w, k, nonzero } = intWidth(ctx, t);
  f.op('local.get', b).op(`${w}.eqz`).if(); bumpDivide(ctx); f.end();
  // a (op) (b == 0 ? 1 : b), then 0 where b == 0.
  f.op('local.get', a).op('local.get', b); k(1); nonzero(b); f.op('select');
  f.op(`${w}.${fn === 'mod' ? 'rem_u' : 'div_u'}`);
  k(0); nonzero(b); f.op('select');
}

/**
 * C's truncated remainder, NumPy's fmod of integers: a zero divisor gives 0,
 * flagged (rem_s gives MIN % -1 as 0 without trapping).
 */
function intRemainder(ctx: EmitContext, t: KType, a: Local, b: Local): void {
  const f = ctx.f;
  const { w, k, nonzero } = intWidth(ctx, t);
  f.op('local.get', b).op(`${w}.eqz`).if(); bumpDivide(ctx); f.end();
  f.op('local.get', a).op('local.get', b); k(1); nonzero(b); f.op('select');
  f.op(`${w}.rem_${isUnsignedK(t) ? 'u' : 's'}`);
  k(0); nonzero(b); f.op('select');
}

/**
 * NumPy's gcd: Euclid's algorithm on the magnitudes, read unsigned (the most
 * negative value's is 2^63, 2^31, 2^15 or 2^7, which wrap back to it as NumPy's do).
 */
function gcdScalar(ctx: EmitContext, t: KType, a: Local, b: Local): void {
  const f = ctx.f;
  const { w, k } = intWidth(ctx, t);
  const [x, y, r] = [f.local(w), f.local(w), f.local(w)];
  for (const [from, to] of [[a, x], [b, y]] as const) {
    if (isUnsignedK(t)) f.op('local.get', from);
    else { k(0); f.op('local.get', from).op(`${w}.sub`).op('local.get', from).op('local.get', from); k(0); f.op(`${w}.lt_s`).op('select'); }
    f.op('local.set', to);
  }
  f.block().loop();
  f.op('local.get', y).op(`${w}.eqz`).op('br_if', 1);
  f.op('local.get', x).op('local.get', y).op(`${w}.rem_u`).op('local.set', r);
  f.op('local.get', y).op('local.set', x).op('local.get', r).op('local.set', y);
  f.op('br', 0);
  f.end().end();
  f.op('local.get', x);
  wrapInt(f, t);
}

export { intDivision, unsignedDivision, intRemainder, gcdScalar };
