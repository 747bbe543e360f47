// Kernels mixing element widths run the vector loop, and give bit for bit what
// the scalar loop gives: each spec runs twice, once as written and once with
// one array declared 'strided' (launched with stride 1, so the same data),
// which forces the scalar loop.
import { compileKernel } from './compile.js';
import type { InnerStride, KBinary, KInstr, KType, KUnary, KernelSpec } from './kernel-spec.js';
import { KTYPE_BYTES } from './kernel-spec.js';
import { instantiate, launch } from './launch.js';
import { noHost, testHeap } from './test-heap.js';
import { VIEW_CONSTRUCTORS } from '../heap/dtypes.js';


/** Values of each type with its special cases: extremes, NaN, infinities, signed zeros, subnormals. */
const SPECIALS: Record<Exclude<KType, 'int64' | 'uint64'>, number[]> = {
  float64: [0, -0, 1, -1.5, 0.1, 1e-310, -5e-324, 3.4028235677973366e38, 1e300, -1e300, Infinity, -Infinity, NaN, 2 ** 31, -(2 ** 31) - 1, 255.5, 1e-45],
  float32: [0, -0, 1, -1.5, 0.1, 1e-40, -1.401298464324817e-45, 3.4028234663852886e38, Infinity, -Infinity, NaN, 16777217],
  int32: [0, 1, -1, 2147483647, -2147483648, 16777217, -16777217, 255, 256, -256],
  uint32: [0, 1, 2147483647, 2147483648, 4294967295, 16777217, 255, 65536],
  int16: [0, 1, -1, 32767, -32768, 255, -256, 1000],
  uint16: [0, 1, 32767, 32768, 65535, 255, 256],
  int8: [0, 1, -1, 127, -128, 100, -100],
  uint8: [0, 1, 127, 128, 254, 255],
  bool: [0, 1],
};

/** int64 and uint64 values with theirs: extremes, either side of 2^32 and 2^53, and values whose products wrap. */
const SPECIALS_64: Record<'int64' | 'uint64', bigint[]> = {
  // Index 4 is what a broadcast second operand holds (sample's seed 4): a shift count that shifts.
  int64: [0n, 1n, -1n, 2n ** 63n - 1n, 5n, -(2n ** 63n), 2n ** 32n, -(2n ** 32n) - 1n, 2n ** 53n + 1n, -(2n ** 53n) - 3n, 3037000500n, 255n, -256n],
  uint64: [0n, 1n, 2n ** 64n - 1n, 2n ** 63n, 5n, 2n ** 63n - 1n, 2n ** 32n, 2n ** 53n + 1n, 4294967297n, 255n, 12345678901234567n],
};

/** n values of t cycling through its specials, shifted by the row so that two arrays pair them differently. */
function sample(t: 'int64' | 'uint64', n: number, seed: number): bigint[];
function sample(t: Exclude<KType, 'int64' | 'uint64'>, n: number, seed: number): number[];
function sample(t: KType, n: number, seed: number): Array<number | bigint> {
  const s: Array<number | bigint> = t === 'int64' || t === 'uint64' ? SPECIALS_64[t] : SPECIALS[t];
  // A step of 7 alone would repeat one value where a type has 7 specials: the row number shifts it.
  return Array.from({ length: n }, (_, i) => s[(i * 7 + seed + Math.floor(i / s.length)) % s.length]!);
}

interface Case {
  readonly name: string;
  readonly spec: KernelSpec;
  readonly lanes: string;
}

const arr = (dtype: KType, role: 'in' | 'out', inner: InnerStride = 'contiguous') => ({ dtype, role, inner }) as const;

/** out (wide) = cast(narrow) + wide, the narrow operand contiguous or broadcast. */
const widening = (wide: KType, narrow: KType, inner: InnerStride): KernelSpec => ({
  ndim: 1,
  arrays: [arr(narrow, 'in', inner), arr(wide, 'in'), arr(wide, 'out')],
  body: [
    { op: 'load', array: 0, type: narrow },
    { op: 'cast', arg: 0, type: wide },
    { op: 'load', array: 1, type: wide },
    { op: 'binary', fn: 'add', args: [1, 2], type: wide },
    { op: 'store', array: 2, arg: 3, type: wide },
  ],
  slots: 0,
});

/** out (narrow) = cast(a * b) for wide a and b. */
const narrowing = (wide: KType, narrow: KType): KernelSpec => ({
  ndim: 1,
  arrays: [arr(wide, 'in'), arr(wide, 'in'), arr(narrow, 'out')],
  body: [
    { op: 'load', array: 0, type: wide },
    { op: 'load', array: 1, type: wide },
    { op: 'binary', fn: 'multiply', args: [0, 1], type: wide },
    { op: 'cast', arg: 2, type: narrow },
    { op: 'store', array: 2, arg: 3, type: narrow },
  ],
  slots: 0,
});

/** where(mask, a, b) with a bool array mask, and a < b stored as bool. */
const masks = (wide: KType): KernelSpec => ({
  ndim: 1,
  arrays: [arr('bool', 'in'), arr(wide, 'in'), arr(wide, 'in'), arr(wide, 'out'), arr('bool', 'out')],
  body: [
    { op: 'load', array: 0, type: 'bool' },
    { op: 'load', array: 1, type: wide },
    { op: 'load', array: 2, type: wide },
    { op: 'select', args: [0, 1, 2], type: wide },
    { op: 'store', array: 3, arg: 3, type: wide },
    { op: 'binary', fn: 'less', args: [1, 2], type: 'bool' },
    { op: 'binary', fn: 'logicalXor', args: [5, 0], type: 'bool' },
    { op: 'store', array: 4, arg: 6, type: 'bool' },
  ],
  slots: 0,
});

/** Masks alone: (a and not b) xor b, a == b and a != b stored, every array bool. */
const boolsAlone = (): KernelSpec => ({
  ndim: 1,
  arrays: [arr('bool', 'in'), arr('bool', 'in'), arr('bool', 'out'), arr('bool', 'out'), arr('bool', 'out')],
  body: [
    { op: 'load', array: 0, type: 'bool' },
    { op: 'load', array: 1, type: 'bool' },
    { op: 'unary', fn: 'logicalNot', arg: 1, type: 'bool' },
    { op: 'binary', fn: 'logicalAnd', args: [0, 2], type: 'bool' },
    { op: 'binary', fn: 'logicalXor', args: [3, 1], type: 'bool' },
    { op: 'store', array: 2, arg: 4, type: 'bool' },
    { op: 'binary', fn: 'equal', args: [0, 1], type: 'bool' },
    { op: 'store', array: 3, arg: 6, type: 'bool' },
    { op: 'binary', fn: 'notEqual', args: [0, 1], type: 'bool' },
    { op: 'store', array: 4, arg: 8, type: 'bool' },
  ],
  slots: 0,
});

/** sum(cast(narrow) * wide): a narrower operand inside a reduction. */
const reducing = (wide: KType, narrow: KType): KernelSpec => ({
  ndim: 1,
  arrays: [arr(narrow, 'in'), arr(wide, 'in')],
  body: [
    { op: 'load', array: 0, type: narrow },
    { op: 'cast', arg: 0, type: wide },
    { op: 'load', array: 1, type: wide },
    { op: 'binary', fn: 'multiply', args: [1, 2], type: wide },
    { op: 'reduce', fn: 'sum', arg: 3, slot: 0, type: wide },
  ] as KInstr[],
  slots: 1,
});

/** fn over an integer array (min, max: the type's own extremes). */
const extremeOf = (t: KType, fn: 'min' | 'max'): KernelSpec => ({
  ndim: 1,
  arrays: [arr(t, 'in')],
  body: [{ op: 'load', array: 0, type: t }, { op: 'reduce', fn, arg: 0, slot: 0, type: t }] as KInstr[],
  slots: 1,
});

/** sum(cast(a) to a float type): an integer array summed in floats, with no float array in the kernel. */
const floatSumOf = (t: KType, to: KType): KernelSpec => ({
  ndim: 1,
  arrays: [arr(t, 'in')],
  body: [{ op: 'load', array: 0, type: t }, { op: 'cast', arg: 0, type: to }, { op: 'reduce', fn: 'sum', arg: 1, slot: 0, type: to }] as KInstr[],
  slots: 1,
});

const LANES: Partial<Record<KType, string>> = { float64: 'f64x2', float32: 'f32x4', int32: 'i32x4', int16: 'i16x8', uint16: 'i16x8', int8: 'i8x16', uint8: 'i8x16' };
const NARROW = ['int16', 'uint16', 'int8', 'uint8'] as const;
/** The lanes of fn over t with its result also cast to int32: i32x4, except that a bool result is not cast, leaving t alone. */
const intLanes = (t: KType, fn: string): string =>
  (COMPARISONS.has(fn as KBinary) || fn === 'signbit' || fn === 'logicalNot' ? LANES[t] ?? 'i32x4' : 'i32x4');
/** Shift counts of type t: either side of each lane width, and a negative one (the largest value, for unsigned types). */
const shiftsOf = (t: KType): number[] => [0, 1, 7, 8, 15, 16, 31, 32, 40, t.startsWith('u') ? intMax(t) : -1];
const intMax = (t: KType): number => ({ uint8: 255, uint16: 65535, uint32: 4294967295 } as Partial<Record<KType, number>>)[t] ?? 127;

/**
 * The spec of `body` (value `r` its result, of type `out`), storing r, and
 * for an integer r also r cast to float64: a store keeps only r's low bytes,
 * the cast its whole lane, so a result left unwrapped shows there.
 */
const withResult = (ins: ReturnType<typeof arr>[], body: KInstr[], out: KType, widen: boolean): KernelSpec => {
  const r = body.length - 1;
  const int = widen && out !== 'bool';
  return {
    ndim: 1,
    arrays: [...ins, arr(out, 'out'), ...(int ? [arr('int32', 'out')] : [])],
    body: [
      ...body,
      { op: 'store', array: ins.length, arg: r, type: out },
      ...(int ? [{ op: 'cast', arg: r, type: 'int32' }, { op: 'store', array: ins.length + 1, arg: r + 2, type: 'int32' }] as KInstr[] : []),
    ],
    slots: 0,
  };
};

/** fn(a, b) over one integer type (bool for comparisons); `widen`: also cast to int32. */
const binaryOf = (t: KType, fn: KBinary, widen: boolean, inner: InnerStride = 'contiguous'): KernelSpec => {
  const out: KType = COMPARISONS.has(fn) ? 'bool' : t;
  return withResult([arr(t, 'in'), arr(t, 'in', inner)],
    [{ op: 'load', array: 0, type: t }, { op: 'load', array: 1, type: t }, { op: 'binary', fn, args: [0, 1], type: out }], out, widen);
};

const PREDICATES: ReadonlySet<KUnary> = new Set(['signbit', 'logicalNot', 'isnan', 'isinf', 'isfinite']);

/** fn(a) over one integer type (bool for predicates). */
const unaryOf = (t: KType, fn: KUnary, widen: boolean): KernelSpec => {
  const out: KType = PREDICATES.has(fn) ? 'bool' : t;
  return withResult([arr(t, 'in')], [{ op: 'load', array: 0, type: t }, { op: 'unary', fn, arg: 0, type: out }], out, widen);
};

/** a shifted by a constant count. */
const shiftBy = (t: KType, fn: 'leftShift' | 'rightShift', count: number | bigint, widen: boolean): KernelSpec =>
  withResult([arr(t, 'in')], [{ op: 'load', array: 0, type: t }, { op: 'const', value: count, type: t }, { op: 'binary', fn, args: [0, 1], type: t }], t, widen);

/** b = cast(a) to the other type of a's width, then b < a and b + 1: a cast between types of one narrow width is their bits. */
const sameWidthCast = (from: KType, to: KType): KernelSpec => ({
  ndim: 1,
  arrays: [arr(from, 'in'), arr('bool', 'out'), arr(to, 'out')],
  body: [
    { op: 'load', array: 0, type: from },
    { op: 'cast', arg: 0, type: to },
    { op: 'cast', arg: 0, type: 'bool' },
    { op: 'cast', arg: 2, type: to },
    { op: 'binary', fn: 'less', args: [1, 3], type: 'bool' },
    { op: 'store', array: 1, arg: 4, type: 'bool' },
    { op: 'const', value: to === 'int64' || to === 'uint64' ? 1n : 1, type: to },
    { op: 'binary', fn: 'add', args: [1, 6], type: to },
    { op: 'store', array: 2, arg: 7, type: to },
  ],
  slots: 0,
});

/** out (to) = cast(a (from) * a): a cast between integer types inside the kernel, after arithmetic that wraps. */
const intCast = (from: KType, to: KType): KernelSpec => ({
  ndim: 1,
  arrays: [arr(from, 'in'), arr(to, 'out')],
  body: [
    { op: 'load', array: 0, type: from },
    { op: 'binary', fn: 'multiply', args: [0, 0], type: from },
    { op: 'cast', arg: 1, type: to },
    { op: 'binary', fn: 'add', args: [2, 2], type: to },
    { op: 'store', array: 1, arg: 3, type: to },
  ],
  slots: 0,
});

const COMPARISONS: ReadonlySet<KBinary> = new Set(['equal', 'notEqual', 'less', 'lessEqual', 'greater', 'greaterEqual', 'logicalAnd', 'logicalOr', 'logicalXor']);
const INT_BINARY_LANES: readonly KBinary[] = ['add', 'subtract', 'multiply', 'floorDivide', 'mod', 'fmod', 'minimum', 'maximum', 'fmax', 'fmin', 'bitwiseAnd', 'bitwiseOr', 'bitwiseXor', ...COMPARISONS];
const INT_UNARY_LANES: readonly KUnary[] = ['negative', 'abs', 'sign', 'square', 'invert', 'signbit', 'logicalNot', 'positive', 'floor'];
const INT_TYPES = ['int32', 'uint32', 'int16', 'uint16', 'int8', 'uint8'] as const;

const NARROW_INTS = ['uint32', 'int16', 'uint16', 'int8', 'uint8'] as const;

const INT64_TYPES = ['int64', 'uint64'] as const;
/** What the scalar loop computes in int64 and uint64 (validate-spec.ts's INT64_UNARY and INT64_BINARY), all of it in i64x2 lanes. */
const INT64_BINARY_LANES: readonly KBinary[] = ['add', 'subtract', 'multiply', 'minimum', 'maximum', 'fmax', 'fmin', 'bitwiseAnd', 'bitwiseOr', 'bitwiseXor', ...COMPARISONS];
const INT64_UNARY_LANES: readonly KUnary[] = ['negative', 'abs', 'sign', 'square', 'positive', 'floor', 'ceil', 'trunc', 'round', 'invert', 'logicalNot', 'isnan', 'isinf', 'isfinite', 'signbit'];
/** Shift counts either side of 32 and 64, one past 2^32 (which must not wrap to a small count), and the largest (unsigned) or -1. */
const shifts64 = (t: KType): bigint[] => [0n, 1n, 31n, 32n, 33n, 63n, 64n, 65n, 2n ** 32n + 1n, t === 'uint64' ? 2n ** 64n - 1n : -1n];

/** fn over an int64 or uint64 array, as the type itself: of the values (uint64's past 2^63 among them), and of their squares (which wrap). */
const reduce64 = (t: KType, fn: 'sum' | 'prod' | 'min' | 'max', squared: boolean): KernelSpec => ({
  ndim: 1,
  arrays: [arr(t, 'in')],
  body: (squared
    ? [{ op: 'load', array: 0, type: t }, { op: 'binary', fn: 'multiply', args: [0, 0], type: t }, { op: 'reduce', fn, arg: 1, slot: 0, type: t }]
    : [{ op: 'load', array: 0, type: t }, { op: 'reduce', fn, arg: 0, slot: 0, type: t }]) as KInstr[],
  slots: 1,
});

/** a * 3 + c, with c a constant past 2^53 (a bigint, as int64 and uint64 constants are). */
const constant64 = (t: KType): KernelSpec => withResult([arr(t, 'in')], [
  { op: 'load', array: 0, type: t }, { op: 'const', value: 3n, type: t }, { op: 'binary', fn: 'multiply', args: [0, 1], type: t },
  { op: 'const', value: 2n ** 62n + 12345n, type: t }, { op: 'binary', fn: 'add', args: [2, 3], type: t },
], t, false);

const cases: Case[] = [
  ...(['float32', 'int32', ...NARROW_INTS, 'bool'] as const).flatMap((n) => (['contiguous', 'broadcast'] as const)
    .map((inner) => ({ name: `float64 + ${n} (${inner})`, spec: widening('float64', n, inner), lanes: 'f64x2' }))),
  ...(['int32', ...NARROW_INTS, 'bool'] as const).flatMap((n) => (['contiguous', 'broadcast'] as const)
    .map((inner) => ({ name: `float32 + ${n} (${inner})`, spec: widening('float32', n, inner), lanes: 'f32x4' }))),
  ...([...NARROW_INTS, 'bool'] as const).flatMap((n) => (['contiguous', 'broadcast'] as const)
    .map((inner) => ({ name: `int32 + ${n} (${inner})`, spec: widening('int32', n, inner), lanes: 'i32x4' }))),
  ...NARROW_INTS.map((n) => ({ name: `int32 -> ${n} (wraps)`, spec: narrowing('int32', n), lanes: 'i32x4' })),
  { name: 'sum(int16 * float32)', spec: reducing('float32', 'int16'), lanes: 'f32x4' },
  { name: 'sum(uint32 * float64)', spec: reducing('float64', 'uint32'), lanes: 'f64x2' },
  { name: 'float64 -> float32', spec: narrowing('float64', 'float32'), lanes: 'f64x2' },
  { name: 'float64 -> bool', spec: narrowing('float64', 'bool'), lanes: 'f64x2' },
  { name: 'float32 -> bool', spec: narrowing('float32', 'bool'), lanes: 'f32x4' },
  { name: 'int32 -> bool', spec: narrowing('int32', 'bool'), lanes: 'i32x4' },
  ...(['float64', 'float32', 'int32'] as const).map((w) => ({ name: `bool masks in ${w}`, spec: masks(w), lanes: LANES[w]! })),
  { name: 'sum(int32 * float64)', spec: reducing('float64', 'int32'), lanes: 'f64x2' },
  { name: 'sum(uint8 * float32)', spec: reducing('float32', 'uint8'), lanes: 'f32x4' },
  // Every integer type computes in i32x4 lanes, wrapping as the scalar loop does: with a cast to int32 in the kernel...
  ...INT_TYPES.flatMap((t) => INT_BINARY_LANES.map((fn) => ({ name: `${t} ${fn}`, spec: binaryOf(t, fn, true), lanes: intLanes(t, fn) }))),
  ...INT_TYPES.map((t) => ({ name: `${t} add, b broadcast`, spec: binaryOf(t, 'add', true, 'broadcast'), lanes: 'i32x4' })),
  ...INT_TYPES.flatMap((t) => INT_UNARY_LANES.map((fn) => ({ name: `${t} ${fn}`, spec: unaryOf(t, fn, true), lanes: intLanes(t, fn) }))),
  ...INT_TYPES.flatMap((t) => shiftsOf(t).flatMap((c) => (['leftShift', 'rightShift'] as const)
    .map((fn) => ({ name: `${t} ${fn} ${c}`, spec: shiftBy(t, fn, c, true), lanes: 'i32x4' })))),
  // ...and a kernel of one narrow width alone in lanes of that width.
  ...NARROW.flatMap((t) => INT_BINARY_LANES.map((fn) => ({ name: `${t} ${fn} alone`, spec: binaryOf(t, fn, false), lanes: LANES[t]! }))),
  ...NARROW.map((t) => ({ name: `${t} add alone, b broadcast`, spec: binaryOf(t, 'add', false, 'broadcast'), lanes: LANES[t]! })),
  ...NARROW.flatMap((t) => INT_UNARY_LANES.map((fn) => ({ name: `${t} ${fn} alone`, spec: unaryOf(t, fn, false), lanes: LANES[t]! }))),
  ...NARROW.flatMap((t) => shiftsOf(t).flatMap((c) => (['leftShift', 'rightShift'] as const)
    .map((fn) => ({ name: `${t} ${fn} ${c} alone`, spec: shiftBy(t, fn, c, false), lanes: LANES[t]! })))),
  ...([['int16', 'uint16'], ['uint16', 'int16'], ['int8', 'uint8'], ['uint8', 'int8']] as const)
    .map(([from, to]) => ({ name: `${from} -> ${to} alone`, spec: sameWidthCast(from, to), lanes: LANES[from]! })),
  ...NARROW.map((t) => ({ name: `bool masks in ${t}`, spec: masks(t), lanes: LANES[t]! })),
  { name: 'bool masks alone', spec: boolsAlone(), lanes: 'i8x16' },
  // Reductions over integer arrays: extremes in i32x4 lanes, sums in the float's lanes.
  ...INT_TYPES.flatMap((t) => (['min', 'max'] as const).map((fn) => ({ name: `${fn} of ${t}`, spec: extremeOf(t, fn), lanes: 'i32x4' }))),
  ...INT_TYPES.map((t) => ({ name: `sum of ${t} in float64`, spec: floatSumOf(t, 'float64'), lanes: 'f64x2' })),
  ...(['int16', 'uint16', 'int8', 'uint8'] as const).map((t) => ({ name: `sum of ${t} in float32`, spec: floatSumOf(t, 'float32'), lanes: 'f32x4' })),
  // Floats stored as integers: truncated, saturated where out of range (NaN to 0), each such element flagged.
  ...(['float64', 'float32'] as const).flatMap((w) => INT_TYPES.map((t) => ({ name: `${w} -> ${t} (saturates, flags)`, spec: narrowing(w, t), lanes: LANES[w]! }))),
  ...INT_TYPES.flatMap((from) => INT_TYPES.filter((to) => to !== from).map((to) => ({ name: `${from} -> ${to} inside the kernel`, spec: intCast(from, to),
    lanes: KTYPE_BYTES[from] === KTYPE_BYTES[to] ? LANES[from] ?? 'i32x4' : 'i32x4' }))),
  // int64 and uint64 in i64x2 lanes: every op the scalar loop has for them, their reductions, casts, masks and constants.
  ...INT64_TYPES.flatMap((t) => INT64_BINARY_LANES.map((fn) => ({ name: `${t} ${fn}`, spec: binaryOf(t, fn, false), lanes: 'i64x2' }))),
  ...INT64_TYPES.map((t) => ({ name: `${t} add, b broadcast`, spec: binaryOf(t, 'add', false, 'broadcast'), lanes: 'i64x2' })),
  ...INT64_TYPES.flatMap((t) => shifts64(t).flatMap((c) => (['leftShift', 'rightShift'] as const)
    .map((fn) => ({ name: `${t} ${fn} ${c}`, spec: shiftBy(t, fn, c, false), lanes: 'i64x2' })))),
  ...INT64_TYPES.flatMap((t) => (['leftShift', 'rightShift'] as const).map((fn) => ({ name: `${t} ${fn}, counts broadcast`, spec: binaryOf(t, fn, false, 'broadcast'), lanes: 'i64x2' }))),
  ...INT64_TYPES.map((t) => ({ name: `${t} less, b broadcast`, spec: binaryOf(t, 'less', false, 'broadcast'), lanes: 'i64x2' })),
  ...INT64_TYPES.flatMap((t) => INT64_UNARY_LANES.map((fn) => ({ name: `${t} ${fn}`, spec: unaryOf(t, fn, false), lanes: 'i64x2' }))),
  ...INT64_TYPES.flatMap((t) => (['sum', 'prod', 'min', 'max'] as const).flatMap((fn) => [false, true].map((squared) =>
    ({ name: `${fn} of ${t}${squared ? ' squared' : ''}`, spec: reduce64(t, fn, squared), lanes: 'i64x2' })))),
  ...INT64_TYPES.map((t) => ({ name: `${t} * 3 + 2^62 + 12345`, spec: constant64(t), lanes: 'i64x2' })),
  ...INT64_TYPES.map((t) => ({ name: `bool masks in ${t}`, spec: masks(t), lanes: 'i64x2' })),
  ...([['int64', 'uint64'], ['uint64', 'int64']] as const).map(([from, to]) => ({ name: `${from} -> ${to}`, spec: sameWidthCast(from, to), lanes: 'i64x2' })),
  // ...narrower integers read extended into them, and stored back as their low bytes.
  ...INT64_TYPES.flatMap((w) => (['int32', ...NARROW_INTS, 'bool'] as const).flatMap((n) => (['contiguous', 'broadcast'] as const)
    .map((inner) => ({ name: `${w} + ${n} (${inner})`, spec: widening(w, n, inner), lanes: 'i64x2' })))),
  ...INT64_TYPES.flatMap((w) => (['int32', ...NARROW_INTS, 'bool'] as const).map((n) => ({ name: `${w} -> ${n} (wraps)`, spec: narrowing(w, n), lanes: 'i64x2' }))),
];

/** Runs spec over n elements (operands filled from SPECIALS); returns every output's bytes and the partials. */
function run(spec: KernelSpec, n: number, blockSize: number) {
  const heap = testHeap();
  const ptrs = spec.arrays.map((a, k) => {
    const count = a.inner === 'broadcast' ? 1 : n;
    const p = heap.alloc(Math.max(1, count) * KTYPE_BYTES[a.dtype]);
    const t = a.dtype;
    if (a.role === 'in' && (t === 'int64' || t === 'uint64')) {
      new (VIEW_CONSTRUCTORS[t] as BigInt64ArrayConstructor)(heap.memory.buffer, p, count).set(sample(t, count, 3 * k + 1));
    } else if (a.role === 'in' && t !== 'int64' && t !== 'uint64') new (VIEW_CONSTRUCTORS[t] as Float64ArrayConstructor)(heap.memory.buffer, p, count).set(sample(t, count, 3 * k + 1));
    return p;
  });
  const compiled = compileKernel(spec);
  const fn = instantiate(compiled, heap.memory, { hostFunction: noHost });
  const r = launch(compiled, heap, fn, {
    shape: [n], arrays: spec.arrays.map((a, k) => ({ ptr: ptrs[k]!, strides: [a.inner === 'broadcast' ? 0 : 1] })), blockSize,
  });
  const outs = spec.arrays.map((a, k) => (a.role === 'out' ? Array.from(new Uint8Array(heap.memory.buffer, ptrs[k]!, n * KTYPE_BYTES[a.dtype])) : []));
  // Partials as their bits too: an int64 or uint64 one is its 64 bits in an f64, whichever NaN that makes.
  const bits = Array.from(new BigUint64Array(r.partials.buffer, r.partials.byteOffset, r.partials.length), String);
  return { outs, partials: Array.from(r.partials), bits, lanes: compiled.lanes, flags: r.flags };
}

/** The same spec with one input declared strided: the scalar loop. */
const scalar = (spec: KernelSpec): KernelSpec => ({
  ...spec,
  arrays: spec.arrays.map((a, k) => (k === spec.arrays.findIndex((b) => b.role === 'in' && b.inner === 'contiguous') ? { ...a, inner: 'strided' } : a)),
});

describe('vector kernels mixing element widths', () => {
  test.each(cases)('$name: vectorised, bit for bit the scalar loop', ({ spec, lanes }) => {
    // Blocks of 13 end most runs in the scalar tail; blocks of 80 hold unrolled vectors of 16 lanes.
    for (const [n, blockSize] of [0, 1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 33, 100].flatMap((k) => [[k, 13], [k, 80]])) {
      const v = run(spec, n!, blockSize!);
      const s = run(scalar(spec), n!, blockSize!);
      expect(v.lanes).toBe(lanes);
      expect(s.lanes).toBeUndefined();
      expect(v.outs).toEqual(s.outs);
      expect(v.flags).toEqual(s.flags);
      // The vector loop sums in several accumulators, the scalar loop in one: equal up to rounding (integer
      // extremes exactly, and the sums of integers here, exact in either order while partials stay below
      // 2^53 in float64 and 2^24 in float32, as they do over these lengths).
      expect(v.partials.length).toBe(s.partials.length);
      if (!spec.arrays.some((a) => a.dtype === 'float64' || a.dtype === 'float32')) expect(v.bits).toEqual(s.bits);
      v.partials.forEach((x, i) => {
        const y = s.partials[i]!;
        expect(Number.isNaN(x) ? NaN : Math.abs(x - y) <= 1e-12 * Math.abs(y) ? y : x).toBe(y);
      });
    }
  });

  test.each([
    ['a narrower array read other than through a cast to the lane type', {
      ndim: 1, arrays: [arr('int32', 'in'), arr('float64', 'in'), arr('float64', 'out')],
      body: [{ op: 'load', array: 0, type: 'int32' }, { op: 'load', array: 1, type: 'float64' },
        { op: 'binary', fn: 'add', args: [0, 0], type: 'int32' }, { op: 'cast', arg: 2, type: 'float64' },
        { op: 'store', array: 2, arg: 3, type: 'float64' }], slots: 0,
    }],
    ['the int32 counter (a random array) read into an int64 kernel: it has no i64x2 form', {
      ndim: 1, arrays: [{ dtype: 'int32', role: 'in', inner: 'contiguous', random: true }, arr('int64', 'out')],
      body: [{ op: 'load', array: 0, type: 'int32' }, { op: 'cast', arg: 0, type: 'int64' }, { op: 'store', array: 1, arg: 1, type: 'int64' }], slots: 0,
    }],
    ['an int32 product inside an int64 kernel', {
      ndim: 1, arrays: [arr('int32', 'in'), arr('int64', 'in'), arr('int64', 'out')],
      body: [{ op: 'load', array: 0, type: 'int32' }, { op: 'binary', fn: 'multiply', args: [0, 0], type: 'int32' }, { op: 'cast', arg: 1, type: 'int64' },
        { op: 'load', array: 1, type: 'int64' }, { op: 'binary', fn: 'add', args: [2, 3], type: 'int64' }, { op: 'store', array: 2, arg: 4, type: 'int64' }], slots: 0,
    }],
  ] as Array<[string, KernelSpec]>)('%s runs the scalar loop', (_, spec) => {
    expect(compileKernel(spec).lanes).toBeUndefined();
  });

  test.each([['int8', 200], ['uint8', -1], ['int16', 40000], ['uint32', 2 ** 32], ['int32', 0.5]] as const)(
    'an integer constant outside its type (%s %d) is refused: the loops would hold it differently', (t, value) => {
      expect(() => compileKernel(shiftBy(t, 'leftShift', value, false))).toThrow(`${value} is not a ${t} value`);
    });
});
