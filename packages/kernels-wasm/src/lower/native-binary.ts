// The binary ops the op table writes as WebAssembly instructions: one entry
// per native row, with its scalar form (one element in f64, f32 or i32
// locals) and its lane form (any of simd-widths.ts's lanes, bools as lane
// masks; integer forms take the operands' type for sign and wrapping). The
// map is typed by the table, so a native row with no entry, or with lanes and
// no lane form, is a `tsc` error.
import type { Local } from '../encode/index.js';
import { InternalError } from '../internal-error.js';
import type { KBinary, LaneOp, NativeOp } from '../ops/elementwise-ops.js';
import { intCompare, is64K, isFloatK, isUnsignedK, scalarType, wrapInt } from './context.js';
import type { EmitContext } from './context.js';
import { laneMul, splatConst } from './emit-values.js';
import { floatDivmodLanes, floatDivmodScalar } from './float-divmod.js';
import { gcdScalar, intDivision, intRemainder, unsignedDivision } from './int-divmod.js';
import { intDivmodLanes } from './int-divmod-lanes.js';
import type { KType } from './kernel-spec.js';
import { compareI64x2, isIntLanes, laneBits, pickI64x2, wrapIntLanes } from './simd-widths.js';
import type { Lanes } from './simd-widths.js';

interface BinaryEmitter {
  /** Leaves fn(a, b) on the stack, for a and b locals of type `t`. */
  readonly scalar: (ctx: EmitContext, t: KType, a: Local, b: Local) => void;
  /** Leaves fn(a, b) for every lane of the v128 locals a and b; `t` is 'bool' where they are masks. */
  readonly lanes?: (ctx: EmitContext, L: Lanes, a: Local, b: Local, t: KType) => void;
}

/** An integer op's lane form by the type's sign: `${op}_u` for unsigned types, `${op}_s` for signed ones. */
const bySign = (L: Lanes, op: string, t: KType): string => `${L}.${op}_${isUnsignedK(t) ? 'u' : 's'}`;

type NativeBinary = Extract<NativeOp, KBinary>;
type BinaryEmitters = { readonly [K in NativeBinary]: K extends LaneOp ? Required<BinaryEmitter> : BinaryEmitter };

const W = (t: KType): string => scalarType(t);
const both = (ctx: EmitContext, a: Local, b: Local): void => { ctx.f.op('local.get', a).op('local.get', b); };

/**
 * Arithmetic of one instruction in every form: `${w}.${name}` for floats, i32
 * wrapped to the type for integers, and the bool form where bool has one.
 */
const arith = (name: string, bool?: 'i32.or' | 'i32.and'): Required<BinaryEmitter> => ({
  scalar: (ctx, t, a, b) => {
    both(ctx, a, b);
    if (isFloatK(t)) { ctx.f.op(`${W(t)}.${name}`); return; }
    if (t === 'bool' && bool) { ctx.f.op(bool); return; }
    if (is64K(t)) { ctx.f.op(`i64.${name}`); return; } // wraps at 64 bits as it stands
    ctx.f.op(`i32.${name}`); wrapInt(ctx.f, t);
  },
  lanes: (ctx, L, a, b, t) => {
    if (name === 'mul') laneMul(ctx, L, a, b);
    else { both(ctx, a, b); ctx.f.op(`${L}.${name}`); }
    wrapIntLanes(ctx.f, L, t);
  },
});

/** A comparison: WebAssembly's for floats, signed or unsigned for integers, bytewise for masks. */
const compare = (c: 'eq' | 'ne' | 'lt' | 'le' | 'gt' | 'ge'): Required<BinaryEmitter> => ({
  scalar: (ctx, t, a, b) => {
    both(ctx, a, b);
    ctx.f.op(isFloatK(t) ? `${W(t)}.${c}` : c === 'eq' || c === 'ne' ? `${W(t)}.${c}` : intCompare(t, c));
  },
  lanes: (ctx, L, a, b, t) => {
    if (L === 'i64x2' && t !== 'bool' && c !== 'eq' && c !== 'ne') { compareI64x2(ctx.f, a, b, c, t); return; }
    both(ctx, a, b);
    if (t === 'bool') ctx.f.op(`i8x16.${c === 'eq' || c === 'ne' ? c : `${c}_s`}`);
    else ctx.f.op(!isIntLanes(L) || c === 'eq' || c === 'ne' ? `${L}.${c}` : bySign(L, c, t));
  },
});

/** logicalAnd, logicalOr, logicalXor: of the operands' truth (x != 0; NaN is true). */
const logical = (scalar: 'i32.and' | 'i32.or' | 'i32.xor', lanes: 'v128.and' | 'v128.or' | 'v128.xor'): Required<BinaryEmitter> => ({
  scalar: (ctx, t, a, b) => {
    for (const x of [a, b]) {
      ctx.f.op('local.get', x);
      if (isFloatK(t)) ctx.f.op(`${W(t)}.const`, 0).op(`${W(t)}.ne`);
      else if (is64K(t)) ctx.f.op('i64.eqz').op('i32.eqz');
      else ctx.f.op('i32.const', 0).op('i32.ne');
    }
    ctx.f.op(scalar);
  },
  lanes: (ctx, L, a, b, t) => {
    for (const x of [a, b]) {
      ctx.f.op('local.get', x);
      if (t !== 'bool') { splatConst(ctx, L, 0); ctx.f.op(`${L}.ne`); }
    }
    ctx.f.op(lanes);
  },
});

/** Bitwise ops: integers or masks, whose bits are their values (the type rules keep floats away). */
const bitwise = (scalar: 'i32.and' | 'i32.or' | 'i32.xor', lanes: 'v128.and' | 'v128.or' | 'v128.xor'): Required<BinaryEmitter> => ({
  scalar: (ctx, t, a, b) => { both(ctx, a, b); ctx.f.op(is64K(t) ? scalar.replace('i32', 'i64') : scalar); },
  lanes: (ctx, _L, a, b) => { both(ctx, a, b); ctx.f.op(lanes); },
});

/**
 * minimum and maximum: IEEE 754-2019's for floats (NaN propagates, -0 < +0), a
 * comparison and select for integers; bool's are and and or.
 */
const extremum = (which: 'min' | 'max'): Required<BinaryEmitter> => ({
  scalar: (ctx, t, a, b) => {
    if (isFloatK(t)) { both(ctx, a, b); ctx.f.op(`${W(t)}.${which}`); return; }
    if (t === 'bool') { both(ctx, a, b); ctx.f.op(which === 'max' ? 'i32.or' : 'i32.and'); return; }
    both(ctx, a, b); both(ctx, a, b); ctx.f.op(intCompare(t, which === 'max' ? 'gt' : 'lt')).op('select');
  },
  lanes: (ctx, L, a, b, t) => {
    if (L === 'i64x2' && t !== 'bool') { pickI64x2(ctx.f, a, b, which === 'max' ? 'gt' : 'lt', t); return; }
    both(ctx, a, b); ctx.f.op(isIntLanes(L) ? bySign(L, which, t) : `${L}.${which}`);
  },
});

/** NumPy's fmax/fmin: a NaN operand gives the other; of equal operands (0 and -0 included), the second. */
const nanSkipping = (which: 'fmax' | 'fmin'): Required<BinaryEmitter> => ({
  scalar: (ctx, t, a, b) => {
    const f = ctx.f;
    if (!isFloatK(t)) { both(ctx, a, b); both(ctx, a, b); f.op(intCompare(t, which === 'fmax' ? 'gt' : 'lt')).op('select'); return; }
    const w = W(t);
    const isNan = (x: Local): void => { f.op('local.get', x).op('local.get', x).op(`${w}.ne`); };
    // a NaN ? b : b NaN ? a : (a > b ? a : b), with < for fmin.
    f.op('local.get', b).op('local.get', a);
    both(ctx, a, b); both(ctx, a, b); f.op(`${w}.${which === 'fmax' ? 'gt' : 'lt'}`).op('select');
    isNan(b); f.op('select');
    isNan(a); f.op('select');
  },
  lanes: (ctx, L, a, b, t) => {
    const f = ctx.f;
    if (L === 'i64x2') { pickI64x2(ctx.f, a, b, which === 'fmax' ? 'gt' : 'lt', t); return; }
    if (isIntLanes(L)) { both(ctx, a, b); f.op(bySign(L, which === 'fmax' ? 'max' : 'min', t)); return; }
    const isNan = (x: Local): void => { f.op('local.get', x).op('local.get', x).op(`${L}.ne`); };
    f.op('local.get', b).op('local.get', a);
    both(ctx, a, b); both(ctx, a, b); f.op(`${L}.${which === 'fmax' ? 'gt' : 'lt'}`).op('v128.bitselect');
    isNan(b); f.op('v128.bitselect');
    isNan(a); f.op('v128.bitselect');
  },
});

const copysign: Required<BinaryEmitter> = {
  scalar: (ctx, t, a, b) => { both(ctx, a, b); ctx.f.op(`${W(t)}.copysign`); },
  // b's sign bit, a's other bits.
  lanes: (ctx, L, a, b) => { ctx.f.op('local.get', b).op('local.get', a); splatConst(ctx, L, -0); ctx.f.op('v128.bitselect'); },
};

/** heaviside(x, h): NaN for NaN x, 0 below zero, 1 above, h at either zero. */
const heaviside: Required<BinaryEmitter> = {
  scalar: (ctx, t, a, b) => {
    const f = ctx.f;
    const w = W(t);
    f.op('local.get', a);
    f.op(`${w}.const`, 0);
    f.op(`${w}.const`, 1).op('local.get', b).op('local.get', a).op(`${w}.const`, 0).op(`${w}.gt`).op('select');
    f.op('local.get', a).op(`${w}.const`, 0).op(`${w}.lt`).op('select');
    f.op('local.get', a).op('local.get', a).op(`${w}.ne`);
    f.op('select');
  },
  lanes: (ctx, L, a, b) => {
    const f = ctx.f;
    f.op('local.get', a);
    splatConst(ctx, L, 0);
    splatConst(ctx, L, 1); f.op('local.get', b).op('local.get', a); splatConst(ctx, L, 0); f.op(`${L}.gt`).op('v128.bitselect');
    f.op('local.get', a); splatConst(ctx, L, 0); f.op(`${L}.lt`).op('v128.bitselect');
    f.op('local.get', a).op('local.get', a).op(`${L}.ne`).op('v128.bitselect');
  },
};

/**
 * C's nextafter(x, y), as NumPy's, with selects and no branch: NaN in either
 * gives x + y (NaN), x == y gives y, zero gives the smallest subnormal with
 * y's sign, and any other x its bits plus one (away from zero, where y lies
 * beyond x on x's side) or minus one. The bits of the smallest subnormal are
 * 1 in the lane's integer, which makes it the step too.
 */
const nextafter: Required<BinaryEmitter> = {
  scalar: (ctx, t, x, y) => {
    const f = ctx.f;
    const [w, i] = t === 'float64' ? ['f64', 'i64'] as const : ['f32', 'i32'] as const;
    const one = (n: 1 | -1): void => { if (i === 'i64') f.op('i64.const', BigInt(n)); else f.op('i32.const', n); };
    f.op('local.get', x).op('local.get', y).op(`${w}.add`);
    f.op('local.get', y);
    f.op(`${w}.const`, t === 'float64' ? Number.MIN_VALUE : 2 ** -149).op('local.get', y).op(`${w}.copysign`);
    f.op('local.get', x).op(`${i}.reinterpret_${w}`);
    one(1); one(-1);
    f.op('local.get', y).op('local.get', x).op(`${w}.gt`).op('local.get', x).op(`${w}.const`, 0).op(`${w}.gt`).op('i32.eq').op('select');
    f.op(`${i}.add`).op(`${w}.reinterpret_${i}`);
    f.op('local.get', x).op(`${w}.const`, 0).op(`${w}.eq`).op('select');
    both(ctx, x, y); f.op(`${w}.eq`).op('select');
    f.op('local.get', x).op('local.get', x).op(`${w}.ne`).op('local.get', y).op('local.get', y).op(`${w}.ne`).op('i32.or').op('select');
  },
  lanes: (ctx, L, x, y) => {
    const f = ctx.f;
    const i = L === 'f64x2' ? 'i64x2' : 'i32x4';
    // The smallest subnormal: 1 in each lane's bits.
    const tiny = (): void => { if (L === 'f64x2') f.v128i64(1n); else f.v128i32(1); };
    both(ctx, x, y); f.op(`${L}.add`);
    f.op('local.get', y);
    f.op('local.get', y); tiny(); splatConst(ctx, L, -0); f.op('v128.bitselect');
    // Minus one where y > x and x > 0 disagree: (all ones or zero) | 1.
    f.op('local.get', x);
    f.op('local.get', y).op('local.get', x).op(`${L}.gt`).op('local.get', x); splatConst(ctx, L, 0); f.op(`${L}.gt`).op('v128.xor');
    tiny(); f.op('v128.or').op(`${i}.add`);
    f.op('local.get', x); splatConst(ctx, L, 0); f.op(`${L}.eq`).op('v128.bitselect');
    both(ctx, x, y); f.op(`${L}.eq`).op('v128.bitselect');
    f.op('local.get', x).op('local.get', x).op(`${L}.ne`).op('local.get', y).op('local.get', y).op(`${L}.ne`).op('v128.or').op('v128.bitselect');
  },
};

/** floorDivide and mod: floats npy_divmod's steps (float-divmod.ts), integers through a float quotient in lanes (int-divmod-lanes.ts). */
const division = (fn: 'floorDivide' | 'mod'): Required<BinaryEmitter> => ({
  scalar: (ctx, t, a, b) => {
    if (isFloatK(t)) floatDivmodScalar(ctx, t, fn, a, b);
    else if (isUnsignedK(t)) unsignedDivision(ctx, t, fn, a, b);
    else { intDivision(ctx, t, fn, a, b); wrapInt(ctx.f, t); }
  },
  lanes: (ctx, L, a, b, t) => { if (isIntLanes(L)) intDivmodLanes(ctx, L, fn, a, b, t); else floatDivmodLanes(ctx, L, fn, a, b); },
});

/**
 * With the count vector on the stack, its lane 0 as an i32 (every lane holds
 * the same count, isLaneShift): extended as the scalar loop's i32 holds it.
 */
function shiftCount(ctx: EmitContext, L: Lanes, t: KType): void {
  ctx.f.op(L === 'i32x4' ? 'i32x4.extract_lane' : `${L}.extract_lane_${isUnsignedK(t) ? 'u' : 's'}`, 0);
}

/** With an i64x2 shift count (the same in every lane) in local b: lane 0's, as i64x2's shifts take it. */
function count64(ctx: EmitContext, b: Local): void {
  ctx.f.op('local.get', b).op('i64x2.extract_lane', 0).op('i32.wrap_i64');
}

/** A mask of the lanes whose count b is below 64, unsigned (a count of 2^32 must not wrap to 0). */
function below64(ctx: EmitContext, b: Local): void {
  compareI64x2(ctx.f, b, 64n, 'lt', 'uint64');
}

/**
 * WebAssembly shifts by the count modulo 32 (modulo the lane width in
 * lanes); NumPy's count is unsigned and a shift past the width gives 0 (or -1
 * for a negative value shifted right). In i32 a narrow type's counts from its
 * width to 31 leave no bits in its low bits, which wrapInt keeps. Lane shifts
 * take one count for all lanes: the vector loop only uses these where the
 * count is the same in every lane (simd-ops.ts isLaneShift), lane 0's, with a
 * mask where it is the lane width or more, unsigned.
 */
const leftShift: BinaryEmitter = {
  scalar: (ctx, t, a, b) => {
    if (is64K(t)) {
      both(ctx, a, b); ctx.f.op('i64.shl').op('i64.const', 0n);
      ctx.f.op('local.get', b).op('i64.const', 64n).op('i64.lt_u').op('select');
      return;
    }
    both(ctx, a, b); ctx.f.op('i32.shl').op('i32.const', 0);
    ctx.f.op('local.get', b).op('i32.const', 32).op('i32.lt_u').op('select');
    wrapInt(ctx.f, t);
  },
  lanes: (ctx, L, a, b, t) => {
    if (L === 'i64x2') { ctx.f.op('local.get', a); count64(ctx, b); ctx.f.op('i64x2.shl'); below64(ctx, b); ctx.f.op('v128.and'); return; }
    both(ctx, a, b); shiftCount(ctx, L, t); ctx.f.op(`${L}.shl`);
    ctx.f.op('local.get', b); splatConst(ctx, L, Math.min(laneBits(L), 32)); ctx.f.op(`${L}.lt_u`).op('v128.and');
    wrapIntLanes(ctx.f, L, t);
  },
};

const rightShift: BinaryEmitter = {
  scalar: (ctx, t, a, b) => {
    const f = ctx.f;
    if (is64K(t)) {
      // Past the width: 0, or the sign for a negative int64.
      both(ctx, a, b); f.op(isUnsignedK(t) ? 'i64.shr_u' : 'i64.shr_s');
      if (isUnsignedK(t)) f.op('i64.const', 0n);
      else f.op('local.get', a).op('i64.const', 63n).op('i64.shr_s');
      f.op('local.get', b).op('i64.const', 64n).op('i64.lt_u').op('select');
      return;
    }
    if (isUnsignedK(t)) {
      both(ctx, a, b); f.op('i32.shr_u').op('i32.const', 0);
      f.op('local.get', b).op('i32.const', 32).op('i32.lt_u').op('select');
      return;
    }
    both(ctx, a, b); f.op('i32.shr_s');
    f.op('local.get', a).op('i32.const', 31).op('i32.shr_s');
    f.op('local.get', b).op('i32.const', 32).op('i32.lt_u').op('select');
  },
  lanes: (ctx, L, a, b, t) => {
    const f = ctx.f;
    if (L === 'i64x2') {
      f.op('local.get', a); count64(ctx, b); f.op(bySign(L, 'shr', t));
      if (isUnsignedK(t)) f.v128i32(0);
      else f.op('local.get', a).op('i32.const', 63).op('i64x2.shr_s');
      below64(ctx, b); f.op('v128.bitselect');
      return;
    }
    // Past the width: 0 for unsigned types (in i32x4 narrow ones are held zero-extended), the sign for signed ones.
    both(ctx, a, b); shiftCount(ctx, L, t); f.op(bySign(L, 'shr', t));
    if (isUnsignedK(t)) f.v128i32(0);
    else f.op('local.get', a).op('i32.const', laneBits(L) - 1).op(`${L}.shr_s`);
    f.op('local.get', b); splatConst(ctx, L, laneBits(L)); f.op(`${L}.lt_u`).op('v128.bitselect');
  },
};


/** fmod of integers (floats take the math library's): C's remainder, in either loop. */
const intFmod: Required<BinaryEmitter> = {
  scalar: (ctx, t, a, b) => {
    if (isFloatK(t)) throw new InternalError(`float fmod is the math library's, not an instruction (${t})`);
    intRemainder(ctx, t, a, b);
  },
  lanes: (ctx, L, a, b, t) => intDivmodLanes(ctx, L, 'fmod', a, b, t),
};

/** NumPy's gcd: integers only, in the scalar loop (int-divmod.ts). */
const gcd: BinaryEmitter = { scalar: gcdScalar };

const NATIVE_BINARY = {
  add: arith('add', 'i32.or'),
  subtract: arith('sub'),
  multiply: arith('mul', 'i32.and'),
  // Floats only: integer division is the host's (the type rules make it float64 anyway).
  divide: arith('div'),
  floorDivide: division('floorDivide'),
  mod: division('mod'),
  fmod: intFmod,
  minimum: extremum('min'),
  maximum: extremum('max'),
  equal: compare('eq'),
  notEqual: compare('ne'),
  less: compare('lt'),
  lessEqual: compare('le'),
  greater: compare('gt'),
  greaterEqual: compare('ge'),
  logicalAnd: logical('i32.and', 'v128.and'),
  logicalOr: logical('i32.or', 'v128.or'),
  logicalXor: logical('i32.xor', 'v128.xor'),
  fmax: nanSkipping('fmax'),
  fmin: nanSkipping('fmin'),
  copysign,
  heaviside,
  nextafter,
  bitwiseAnd: bitwise('i32.and', 'v128.and'),
  bitwiseOr: bitwise('i32.or', 'v128.or'),
  bitwiseXor: bitwise('i32.xor', 'v128.xor'),
  leftShift,
  rightShift,
  gcd,
} as const satisfies BinaryEmitters;

/** The emitter of a binary op, where the table writes it as instructions. */
const binaryEmitter = (fn: KBinary): BinaryEmitter | undefined => {
  const emitters: Partial<Record<KBinary, BinaryEmitter>> = NATIVE_BINARY;
  return emitters[fn];
};

export { NATIVE_BINARY, binaryEmitter };
export type { BinaryEmitter, BinaryEmitters, NativeBinary };
