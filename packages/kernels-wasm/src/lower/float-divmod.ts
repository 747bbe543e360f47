// Float floorDivide and mod: NumPy's npy_divmod step by step (as
// deferred-array's reference ports it), in scalar locals or in f64x2/f32x4
// lanes, each step rounded in the operands' type:
//   m = fmod(a, b)                       (exact; the math library's fmod)
//   d = (a - m) / b
//   where m != 0 and b, m differ in sign: m += b, d -= 1
//   where m == 0: m = copysign(0, b)
//   floorDivide: d != 0 ? floor(d) + (d - floor(d) > 0.5) : copysign(0, a / b)
//   b == 0: floorDivide a / b, mod fmod(a, b) (NaN)
// NaN compares false, so NaN operands carry NaN through every step as
// npy_divmod's do. No float status is kept (the reference keeps none).
import type { Local } from '../encode/index.js';
import { InternalError } from '../internal-error.js';
import type { EmitContext } from './context.js';
import type { KType } from './kernel-spec.js';
import { splatConst } from './emit-values.js';
import type { Lanes } from './simd-widths.js';

/** The instruction forms a step is written in: scalar f64/f32, or f64x2/f32x4 lanes with masks. */
interface Form {
  /** 'f64', 'f32', 'f64x2' or 'f32x4'. */
  readonly p: string;
  readonly lanes: boolean;
}

/** fmod(a, b) on the stack, through the math library's exact routine (float32 scalars through float64, exact too). */
function fmod(ctx: EmitContext, form: Form, a: Local, b: Local): void {
  const f = ctx.f;
  const lanes = form.p === 'f32x4' ? 'f32x4' : 'f64x2';
  const routine = ctx.math('fmod', lanes);
  if (!routine) throw new InternalError('the math library has no fmod');
  if (form.lanes) {
    f.op('local.get', a).op('local.get', b);
    routine.inline();
    return;
  }
  for (const x of [a, b]) {
    f.op('local.get', x);
    if (form.p === 'f32') f.op('f64.promote_f32');
    f.op('f64x2.splat');
  }
  routine.call();
  f.op('f64x2.extract_lane', 0);
  if (form.p === 'f32') f.op('f32.demote_f64');
}

function floatDivmod(ctx: EmitContext, form: Form, fn: 'floorDivide' | 'mod', a: Local, b: Local): void {
  const f = ctx.f;
  const { p } = form;
  const ty = form.lanes ? 'v128' : p === 'f64' ? 'f64' : 'f32';
  const maskTy = form.lanes ? 'v128' : 'i32';
  const set = (type: 'v128' | 'f64' | 'f32' | 'i32', emit: () => void): Local => {
    emit();
    const l = f.local(type);
    f.op('local.set', l);
    return l;
  };
  const get = (...ls: Local[]): void => { for (const l of ls) f.op('local.get', l); };
  const num = (v: number): void => { if (form.lanes) splatConst(ctx, p as Lanes, v); else f.op(`${p}.const`, v); };
  /** `yes` where mask holds, else `no`: scalar select or lane bitselect (the mask on top either way). */
  const choose = (yes: () => void, no: () => void, mask: () => void): void => {
    yes(); no(); mask();
    f.op(form.lanes ? 'v128.bitselect' : 'select');
  };
  const and = form.lanes ? 'v128.and' : 'i32.and';
  /** copysign(0, x): scalar copysign, or x's sign bit alone in lanes. */
  const zeroWithSignOf = (x: () => void): void => {
    if (form.lanes) { x(); num(-0); f.op('v128.and'); } else { num(0); x(); f.op(`${p}.copysign`); }
  };

  const m = set(ty, () => fmod(ctx, form, a, b));
  const nonzero = set(maskTy, () => { get(m); num(0); f.op(`${p}.ne`); });
  const flip = set(maskTy, () => {
    get(nonzero);
    get(b); num(0); f.op(`${p}.lt`);
    get(m); num(0); f.op(`${p}.lt`);
    f.op(form.lanes ? 'v128.xor' : 'i32.xor').op(and);
  });
  if (fn === 'mod') {
    const m2 = set(ty, () => choose(() => { get(m, b); f.op(`${p}.add`); }, () => get(m), () => get(flip)));
    // b == 0 needs no case of its own: m is fmod's NaN there, which passes every step unchanged.
    choose(() => get(m2), () => zeroWithSignOf(() => get(b)), () => get(nonzero));
    return;
  }
  const d = set(ty, () => { get(a, m); f.op(`${p}.sub`); get(b); f.op(`${p}.div`); });
  const d2 = set(ty, () => choose(() => { get(d); num(1); f.op(`${p}.sub`); }, () => get(d), () => get(flip)));
  const fl = set(ty, () => { get(d2); f.op(`${p}.floor`); });
  const snapped = set(ty, () => choose(() => { get(fl); num(1); f.op(`${p}.add`); }, () => get(fl),
    () => { get(d2, fl); f.op(`${p}.sub`); num(0.5); f.op(`${p}.gt`); }));
  const quotient = set(ty, () => { get(a, b); f.op(`${p}.div`); });
  const floorQuotient = set(ty, () => choose(() => get(snapped), () => zeroWithSignOf(() => get(quotient)), () => { get(d2); num(0); f.op(`${p}.ne`); }));
  // b == 0: a / b.
  choose(() => get(floorQuotient), () => get(quotient), () => { get(b); num(0); f.op(`${p}.ne`); });
}

/** The scalar form for a float type. */
function floatDivmodScalar(ctx: EmitContext, t: KType, fn: 'floorDivide' | 'mod', a: Local, b: Local): void {
  if (t !== 'float64' && t !== 'float32') throw new InternalError(`float divmod of ${t}`);
  floatDivmod(ctx, { p: t === 'float64' ? 'f64' : 'f32', lanes: false }, fn, a, b);
}

/** The lane form, for f64x2 or f32x4. */
function floatDivmodLanes(ctx: EmitContext, L: string, fn: 'floorDivide' | 'mod', a: Local, b: Local): void {
  if (L !== 'f64x2' && L !== 'f32x4') throw new InternalError(`${fn} has no ${L} lanes (integers run the scalar loop)`);
  floatDivmod(ctx, { p: L, lanes: true }, fn, a, b);
}

export { floatDivmodScalar, floatDivmodLanes };
