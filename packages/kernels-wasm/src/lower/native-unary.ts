// The unary ops the op table writes as WebAssembly instructions: one entry
// per native row, with its scalar form (one element in an f64, f32 or i32
// local) and its lane form (any of simd-widths.ts's lanes; integer forms take
// the operand's type for sign and wrapping). The map is typed by the
// table, so a native row with no entry, or with lanes and no lane form, is a
// `tsc` error. Bool operands of the vector loop are masks, which simd-ops.ts
// handles before it gets here.
import type { Local } from '../encode/index.js';
import type { KUnary, LaneOp, NativeOp } from '../ops/elementwise-ops.js';
import { is64K, isFloatK, isUnsignedK, scalarType, wrapInt } from './context.js';
import type { EmitContext } from './context.js';
import { angleFactor, bumpDivide, laneMul, splatConst } from './emit-values.js';
import type { KType } from './kernel-spec.js';
import { LANE_DTYPE, isIntLanes, laneBits, wrapIntLanes } from './simd-widths.js';
import type { Lanes } from './simd-widths.js';

interface UnaryEmitter {
  /** Leaves fn(x) on the stack, for x a local of type `t`. */
  readonly scalar: (ctx: EmitContext, t: KType, x: Local) => void;
  /** Leaves fn(x) for every lane of the v128 local x (numbers of type `t`, not masks). */
  readonly lanes?: (ctx: EmitContext, L: Lanes, x: Local, t: KType) => void;
}

type NativeUnary = Extract<NativeOp, KUnary>;
type UnaryEmitters = { readonly [K in NativeUnary]: K extends LaneOp ? Required<UnaryEmitter> : UnaryEmitter };

const W = (t: KType): string => scalarType(t);

/** A float op of one instruction, `${w}.${name}`, in both forms. */
const floatInstr = (name: string): UnaryEmitter['scalar'] => (ctx, t, x) => { ctx.f.op('local.get', x).op(`${W(t)}.${name}`); };
const laneInstr = (name: string): NonNullable<UnaryEmitter['lanes']> => (ctx, L, x) => { ctx.f.op('local.get', x).op(`${L}.${name}`); };

/** floor, ceil and trunc: one instruction for floats; integers are whole already. */
const rounding = (name: string): Required<UnaryEmitter> => ({
  scalar: (ctx, t, x) => { ctx.f.op('local.get', x); if (isFloatK(t)) ctx.f.op(`${W(t)}.${name}`); },
  lanes: (ctx, L, x) => { ctx.f.op('local.get', x); if (!isIntLanes(L)) ctx.f.op(`${L}.${name}`); },
});

const negative: Required<UnaryEmitter> = {
  scalar: (ctx, t, x) => {
    if (isFloatK(t)) { floatInstr('neg')(ctx, t, x); return; }
    if (is64K(t)) { ctx.f.op('i64.const', 0n).op('local.get', x).op('i64.sub'); return; }
    ctx.f.op('i32.const', 0).op('local.get', x).op('i32.sub'); wrapInt(ctx.f, t);
  },
  lanes: (ctx, L, x, t) => { laneInstr('neg')(ctx, L, x, t); wrapIntLanes(ctx.f, L, t); },
};

const abs: Required<UnaryEmitter> = {
  scalar: (ctx, t, x) => {
    const f = ctx.f;
    if (isFloatK(t)) { floatInstr('abs')(ctx, t, x); return; }
    if (isUnsignedK(t)) { f.op('local.get', x); return; }
    if (is64K(t)) {
      f.op('i64.const', 0n).op('local.get', x).op('i64.sub');
      f.op('local.get', x).op('local.get', x).op('i64.const', 0n).op('i64.lt_s').op('select');
      return;
    }
    // The most negative value is its own absolute value, as NumPy's wraps.
    f.op('i32.const', 0).op('local.get', x).op('i32.sub'); wrapInt(f, t);
    f.op('local.get', x).op('local.get', x).op('i32.const', 0).op('i32.lt_s').op('select');
  },
  lanes: (ctx, L, x, t) => {
    ctx.f.op('local.get', x);
    if (isIntLanes(L) && isUnsignedK(t)) return;
    ctx.f.op(`${L}.abs`);
    wrapIntLanes(ctx.f, L, t);
  },
};

const sign: Required<UnaryEmitter> = {
  scalar: (ctx, t, x) => {
    const f = ctx.f;
    const get = (): void => { f.op('local.get', x); };
    if (isFloatK(t)) {
      // x > 0 ? 1 : x < 0 ? -1 : x == 0 ? 0 : x (NaN stays NaN, -0 gives +0)
      const w = W(t);
      f.op(`${w}.const`, 1).op(`${w}.const`, -1);
      f.op(`${w}.const`, 0); get(); get(); f.op(`${w}.const`, 0).op(`${w}.eq`).op('select');
      get(); f.op(`${w}.const`, 0).op(`${w}.lt`).op('select');
      get(); f.op(`${w}.const`, 0).op(`${w}.gt`).op('select');
      return;
    }
    if (is64K(t)) {
      // In the type: int64's -1, 0 or 1; uint64's 0 or 1.
      if (isUnsignedK(t)) { get(); f.op('i64.const', 0n).op('i64.ne').op('i64.extend_i32_u'); return; }
      f.op('i64.const', 1n).op('i64.const', -1n).op('i64.const', 0n);
      get(); f.op('i64.const', 0n).op('i64.lt_s').op('select');
      get(); f.op('i64.const', 0n).op('i64.gt_s').op('select');
      return;
    }
    if (isUnsignedK(t)) { get(); f.op('i32.const', 0).op('i32.ne'); return; }
    f.op('i32.const', 1).op('i32.const', -1).op('i32.const', 0);
    get(); f.op('i32.const', 0).op('i32.lt_s').op('select');
    get(); f.op('i32.const', 0).op('i32.gt_s').op('select');
  },
  lanes: (ctx, L, x, t) => {
    const f = ctx.f;
    const isFloat = !isIntLanes(L);
    // i64x2 has no unsigned comparison: uint64's sign is x != 0, a mask negated to 1.
    if (L === 'i64x2' && isUnsignedK(t)) { f.op('local.get', x); splatConst(ctx, L, 0); f.op('i64x2.ne').op('i64x2.neg'); return; }
    const u = isUnsignedK(t) ? 'u' : 's';
    const [lt, gt] = isFloat ? ['lt', 'gt'] : [`lt_${u}`, `gt_${u}`];
    splatConst(ctx, L, 1);
    splatConst(ctx, L, -1);
    if (isFloat) {
      // x == 0 gives +0 (also for -0); NaN passes through.
      splatConst(ctx, L, 0); f.op('local.get', x).op('local.get', x); splatConst(ctx, L, 0); f.op(`${L}.eq`).op('v128.bitselect');
    } else {
      splatConst(ctx, L, 0);
    }
    f.op('local.get', x); splatConst(ctx, L, 0); f.op(`${L}.${lt}`).op('v128.bitselect');
    f.op('local.get', x); splatConst(ctx, L, 0); f.op(`${L}.${gt}`).op('v128.bitselect');
  },
};

const square: Required<UnaryEmitter> = {
  scalar: (ctx, t, x) => { ctx.f.op('local.get', x).op('local.get', x).op(`${W(t)}.mul`); if (!isFloatK(t)) wrapInt(ctx.f, t); },
  lanes: (ctx, L, x, t) => { laneMul(ctx, L, x, x); wrapIntLanes(ctx.f, L, t); },
};

const reciprocal: Required<UnaryEmitter> = {
  scalar: (ctx, t, x) => {
    const f = ctx.f;
    if (isFloatK(t)) { f.op(`${W(t)}.const`, 1).op('local.get', x).op(`${W(t)}.div`); return; }
    // 1/x truncated: 1 (and -1) are their own reciprocals, 0 is a division by zero (0, flagged), the rest 0.
    f.op('local.get', x).op('i32.eqz').if(); bumpDivide(ctx); f.end();
    f.op('local.get', x).op('i32.const', 0).op('local.get', x);
    if (isUnsignedK(t)) f.op('i32.const', 1).op('i32.le_u');
    else f.op('i32.const', 1).op('i32.add').op('i32.const', 2).op('i32.le_u');
    f.op('select');
  },
  lanes: (ctx, L, x) => { splatConst(ctx, L, 1); ctx.f.op('local.get', x).op(`${L}.div`); },
};

const round: Required<UnaryEmitter> = {
  scalar: (ctx, t, x) => { ctx.f.op('local.get', x); if (isFloatK(t)) ctx.f.op(`${W(t)}.nearest`); },
  lanes: (ctx, L, x) => { ctx.f.op('local.get', x); if (!isIntLanes(L)) ctx.f.op(`${L}.nearest`); },
};

/** A float predicate, and the constant it is for every integer. */
const predicate = (float: (ctx: EmitContext, w: string, x: Local) => void, lanes: (ctx: EmitContext, L: Lanes, x: Local) => void, int: 0 | 1): Required<UnaryEmitter> => ({
  scalar: (ctx, t, x) => { if (isFloatK(t)) float(ctx, W(t), x); else ctx.f.op('i32.const', int); },
  lanes: (ctx, L, x) => { if (!isIntLanes(L)) lanes(ctx, L, x); else splatConst(ctx, L, -int); },
});

const isnan = predicate(
  (ctx, w, x) => { ctx.f.op('local.get', x).op('local.get', x).op(`${w}.ne`); },
  (ctx, L, x) => { ctx.f.op('local.get', x).op('local.get', x).op(`${L}.ne`); }, 0);
const isinf = predicate(
  (ctx, w, x) => { ctx.f.op('local.get', x).op(`${w}.abs`).op(`${w}.const`, Infinity).op(`${w}.eq`); },
  (ctx, L, x) => { ctx.f.op('local.get', x).op(`${L}.abs`); splatConst(ctx, L, Infinity); ctx.f.op(`${L}.eq`); }, 0);
const isfinite = predicate(
  (ctx, w, x) => { ctx.f.op('local.get', x).op(`${w}.abs`).op(`${w}.const`, Infinity).op(`${w}.lt`); },
  (ctx, L, x) => { ctx.f.op('local.get', x).op(`${L}.abs`); splatConst(ctx, L, Infinity); ctx.f.op(`${L}.lt`); }, 1);

const logicalNot: Required<UnaryEmitter> = {
  scalar: (ctx, t, x) => {
    ctx.f.op('local.get', x);
    if (isFloatK(t)) ctx.f.op(`${W(t)}.const`, 0).op(`${W(t)}.eq`);
    else ctx.f.op(is64K(t) ? 'i64.eqz' : 'i32.eqz');
  },
  lanes: (ctx, L, x) => { ctx.f.op('local.get', x); splatConst(ctx, L, 0); ctx.f.op(`${L}.eq`); },
};

const signbit: Required<UnaryEmitter> = {
  // The sign bit, NaN's included; narrow signed values are held sign-extended, unsigned ones are never negative.
  scalar: (ctx, t, x) => {
    const f = ctx.f;
    if (t === 'float64') f.op('local.get', x).op('i64.reinterpret_f64').op('i64.const', 63n).op('i64.shr_u').op('i32.wrap_i64');
    else if (t === 'float32') f.op('local.get', x).op('i32.reinterpret_f32').op('i32.const', 31).op('i32.shr_u');
    else if (isUnsignedK(t)) f.op('i32.const', 0);
    else if (is64K(t)) f.op('local.get', x).op('i64.const', 63n).op('i64.shr_u').op('i32.wrap_i64');
    else f.op('local.get', x).op('i32.const', 31).op('i32.shr_u');
  },
  // A mask of the sign bit: the lane shifted arithmetically by its width less one (none for unsigned types).
  lanes: (ctx, L, x, t) => {
    if (isUnsignedK(t)) { ctx.f.v128i32(0); return; }
    const bits = laneBits(L);
    ctx.f.op('local.get', x).op('i32.const', bits - 1).op(`${bits === 64 ? 'i64x2' : bits === 32 ? 'i32x4' : L}.shr_s`);
  },
};

const positive: Required<UnaryEmitter> = {
  scalar: (ctx, _t, x) => { ctx.f.op('local.get', x); },
  lanes: (ctx, _L, x) => { ctx.f.op('local.get', x); },
};

const angle = (fn: 'deg2rad' | 'rad2deg'): Required<UnaryEmitter> => ({
  scalar: (ctx, t, x) => { ctx.f.op('local.get', x).op(`${W(t)}.const`, angleFactor(fn, t)).op(`${W(t)}.mul`); },
  lanes: (ctx, L, x) => { ctx.f.op('local.get', x); splatConst(ctx, L, angleFactor(fn, LANE_DTYPE[L])); ctx.f.op(`${L}.mul`); },
});

const invert: Required<UnaryEmitter> = {
  // All ones of the type's width (logical not for bool).
  scalar: (ctx, t, x) => {
    if (is64K(t)) { ctx.f.op('local.get', x).op('i64.const', -1n).op('i64.xor'); return; }
    ctx.f.op('local.get', x).op('i32.const', t === 'bool' ? 1 : -1).op('i32.xor'); wrapInt(ctx.f, t);
  },
  lanes: (ctx, L, x, t) => { ctx.f.op('local.get', x).op('v128.not'); wrapIntLanes(ctx.f, L, t); },
};

const NATIVE_UNARY = {
  negative, abs, sign, square, reciprocal, round, logicalNot, isnan, isinf, isfinite, signbit, positive, invert,
  sqrt: { scalar: floatInstr('sqrt'), lanes: laneInstr('sqrt') },
  floor: rounding('floor'),
  ceil: rounding('ceil'),
  trunc: rounding('trunc'),
  deg2rad: angle('deg2rad'),
  rad2deg: angle('rad2deg'),
} as const satisfies UnaryEmitters;

/** The emitter of a unary op, where the table writes it as instructions. */
const unaryEmitter = (fn: KUnary): UnaryEmitter | undefined => {
  const emitters: Partial<Record<KUnary, UnaryEmitter>> = NATIVE_UNARY;
  return emitters[fn];
};

export { NATIVE_UNARY, unaryEmitter };
export type { UnaryEmitter, UnaryEmitters, NativeUnary };
