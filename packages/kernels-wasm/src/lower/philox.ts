// Random arrays generated inside kernels: Philox 4x32-10 (Salmon, Moraes, Dror
// and Shaw, "Parallel random numbers: as easy as 1, 2, 3", SC'11; the
// Random123 library's philox4x32 with 10 rounds). A counter-based generator:
// element e of a random array is a pure function of (key, counter), the
// counter being [e, 0, stream_lo, stream_hi], so the value does not depend on
// which thread or block computes it, and no array is ever stored.
//
// Element e's words w0..w3 give (NumPy's next_double / next_float):
//   float64: ((w1 * 2^32 + w0) >> 11) * 2^-53 = w1 * 2^-32 + (w0 >>> 11) * 2^-53
//   float32: (w0 >>> 8) * 2^-24
// both in [0, 1), every value a multiple of 2^-53 (2^-24) exactly.
import type { FunctionBuilder, Local } from '../encode/index.js';
import { InternalError, at } from '../internal-error.js';
import { HIGH_TO_LOW, PRODUCT_HIGH_WORDS, PRODUCT_LOW_WORDS } from '../encode/shuffles.js';
import { RANDOM_WORDS_BYTES, randomOffset } from './args-layout.js';
import type { EmitContext } from './context.js';
import type { KType, KernelSpec } from './kernel-spec.js';
import { LANE_COUNT } from './simd-widths.js';
import type { Lanes } from './simd-widths.js';

const M0 = 0xd2511f53;
const M1 = 0xcd9e8d57;
const W0 = 0x9e3779b9;
const W1 = 0xbb67ae85;
const ROUNDS = 10;

/** Launch words of one random array: the key, then the stream (the counter's upper half). */
interface RandomWords {
  readonly key: readonly [number, number];
  readonly stream: readonly [number, number];
}

/** What one random array's code reads, in locals set once per call of the kernel function. */
interface RoundKeys {
  /** Each round's key words: round r uses key + r * (W0, W1). */
  readonly scalar: ReadonlyArray<readonly [Local, Local]>;
  readonly s0: Local;
  readonly s1: Local;
  /** For vector code (V8 does not hoist a v128.const out of a loop, so constants live here too). */
  readonly vector?: VectorKeys;
}

/** What vector code reads of a random array's keys, in v128 locals. */
interface VectorKeys {
    /** Rounds 2..9's keys, splatted (index r - 2). */
    readonly keys: ReadonlyArray<readonly [Local, Local]>;
    /**
     * What the first two rounds share across elements (only word 0 of the
     * counter varies): splats of s1 ^ k1 (round 0), then of lo(s0 * M1) ^ k0'
     * and hi(A * M0) ^ k1' and lo(A * M0) (round 1), where A = hi(s0 * M1) ^ k0
     * is word 0 after round 0, the same for every element.
     */
    readonly shared: readonly [Local, Local, Local, Local];
    /** The multipliers, the lane offsets 0..3, and the scales 2^-32, 2^-53 (f64x2) and 2^-24 (f32x4). */
    readonly m0: Local;
    readonly m1: Local;
    readonly laneIds: Local;
    readonly scale32: Local;
    readonly scale53: Local;
    readonly scale24: Local;
}

/** Reads the key and stream at `wordsAt` (a byte offset in the launch block `args`) and sets what the generator's code reads. */
function emitRoundKeys(f: FunctionBuilder, args: Local, wordsAt: number, vector: boolean): RoundKeys {
  const load = (k: number): void => { f.op('local.get', args).mem('i32.load', { offset: wordsAt + 4 * k }); };
  const scalar = Array.from({ length: ROUNDS }, (_, r): [Local, Local] => {
    const pair: [Local, Local] = [f.local('i32'), f.local('i32')];
    load(0); f.op('i32.const', Math.imul(r, W0) | 0).op('i32.add').op('local.set', pair[0]);
    load(1); f.op('i32.const', Math.imul(r, W1) | 0).op('i32.add').op('local.set', pair[1]);
    return pair;
  });
  const s0 = f.local('i32');
  const s1 = f.local('i32');
  load(2); f.op('local.set', s0);
  load(3); f.op('local.set', s1);
  if (!vector) return { scalar, s0, s1 };
  const set = (push: () => void): Local => {
    const v = f.local('v128');
    push();
    f.op('local.set', v);
    return v;
  };
  const splat = (push: () => void): Local => set(() => { push(); f.op('i32x4.splat'); });
  const [round0, round1] = scalar;
  if (!round0 || !round1) throw new InternalError('Philox needs at least two rounds');
  const [k00, k10] = round0;
  const [k01, k11] = round1;
  const p = f.local('i64');
  const a = f.local('i32');
  const q = f.local('i64');
  f.op('local.get', s0).op('i64.extend_i32_u').op('i64.const', BigInt(M1)).op('i64.mul').op('local.set', p);
  f.op('local.get', p).op('i64.const', 32n).op('i64.shr_u').op('i32.wrap_i64').op('local.get', k00).op('i32.xor').op('local.set', a);
  f.op('local.get', a).op('i64.extend_i32_u').op('i64.const', BigInt(M0)).op('i64.mul').op('local.set', q);
  return {
    scalar, s0, s1,
    vector: {
      keys: scalar.slice(2).map(([x, y]) => [splat(() => f.op('local.get', x)), splat(() => f.op('local.get', y))] as const),
      shared: [
        splat(() => { f.op('local.get', s1).op('local.get', k10).op('i32.xor'); }),
        splat(() => { f.op('local.get', p).op('i32.wrap_i64').op('local.get', k01).op('i32.xor'); }),
        splat(() => { f.op('local.get', q).op('i64.const', 32n).op('i64.shr_u').op('i32.wrap_i64').op('local.get', k11).op('i32.xor'); }),
        splat(() => { f.op('local.get', q).op('i32.wrap_i64'); }),
      ],
      m0: set(() => f.v128i32(M0 | 0)),
      m1: set(() => f.v128i32(M1 | 0)),
      laneIds: set(() => f.v128i32(0, 1, 2, 3)),
      scale32: set(() => f.v128f64(2 ** -32)),
      scale53: set(() => f.v128f64(2 ** -53)),
      scale24: set(() => f.v128f32(2 ** -24)),
    },
  };
}

/** Each random array of `spec`, by array index: its keys, set once per call of the kernel function. */
function randomKeysOf(ctx: EmitContext, spec: KernelSpec, vector: boolean): Map<number, RoundKeys> {
  const keys = new Map<number, RoundKeys>();
  let r = 0;
  spec.arrays.forEach((a, k) => {
    if (a.random) keys.set(k, emitRoundKeys(ctx.f, ctx.args, randomOffset(spec) + RANDOM_WORDS_BYTES * r++, vector));
  });
  return keys;
}

/** Philox on the counter [e, 0, s0, s1] in scalar code: leaves w0 and w1 (or only w0) in `out`. */
function emitPhiloxScalar(f: FunctionBuilder, keys: RoundKeys, e: Local, out: readonly Local[]): void {
  const R = [f.local('i32'), f.local('i32'), f.local('i32'), f.local('i32')] as const;
  const p0 = f.local('i64');
  const p1 = f.local('i64');
  f.op('local.get', e).op('local.set', R[0]);
  f.op('i32.const', 0).op('local.set', R[1]);
  f.op('local.get', keys.s0).op('local.set', R[2]);
  f.op('local.get', keys.s1).op('local.set', R[3]);
  for (const [k0, k1] of keys.scalar) {
    f.op('local.get', R[0]).op('i64.extend_i32_u').op('i64.const', BigInt(M0)).op('i64.mul').op('local.set', p0);
    f.op('local.get', R[2]).op('i64.extend_i32_u').op('i64.const', BigInt(M1)).op('i64.mul').op('local.set', p1);
    // R0 = hi1 ^ R1 ^ k0;  R2 = hi0 ^ R3 ^ k1;  R1 = lo1;  R3 = lo0
    f.op('local.get', p1).op('i64.const', 32n).op('i64.shr_u').op('i32.wrap_i64').op('local.get', R[1]).op('i32.xor').op('local.get', k0).op('i32.xor').op('local.set', R[0]);
    f.op('local.get', p0).op('i64.const', 32n).op('i64.shr_u').op('i32.wrap_i64').op('local.get', R[3]).op('i32.xor').op('local.get', k1).op('i32.xor').op('local.set', R[2]);
    f.op('local.get', p1).op('i32.wrap_i64').op('local.set', R[1]);
    f.op('local.get', p0).op('i32.wrap_i64').op('local.set', R[3]);
  }
  out.forEach((l, i) => { f.op('local.get', at(R, i, 'word')).op('local.set', l); });
}

/** Leaves element e's value on the stack, in scalar code (`dtype` float64, float32 or int32, the counter: validateSpec checks it). */
function emitRandomScalar(f: FunctionBuilder, keys: RoundKeys, e: Local, dtype: KType): void {
  if (dtype === 'int32') {
    f.op('local.get', e);
    return;
  }
  const w0 = f.local('i32');
  if (dtype === 'float32') {
    emitPhiloxScalar(f, keys, e, [w0]);
    f.op('local.get', w0).op('i32.const', 8).op('i32.shr_u').op('f32.convert_i32_u').op('f32.const', 2 ** -24).op('f32.mul');
    return;
  }
  const w1 = f.local('i32');
  emitPhiloxScalar(f, keys, e, [w0, w1]);
  f.op('local.get', w1).op('f64.convert_i32_u').op('f64.const', 2 ** -32).op('f64.mul');
  f.op('local.get', w0).op('i32.const', 11).op('i32.shr_u').op('f64.convert_i32_u').op('f64.const', 2 ** -53).op('f64.mul');
  f.op('f64.add');
}

/**
 * Philox on the four counters [e + i, 0, s0, s1], i = 0..3, one per lane:
 * leaves w0 and w1 (or only w0) of the four in `out` as i32x4.
 */
function emitPhiloxVector(f: FunctionBuilder, v: VectorKeys, e: Local, out: readonly Local[]): void {
  const R = [f.local('v128'), f.local('v128'), f.local('v128'), f.local('v128')] as const;
  const [lo, hi] = [f.local('v128'), f.local('v128')];
  // hi, lo of the four 32 x 32 -> 64-bit products of `x` and `m`, each into a local.
  const mulhilo = (x: Local, m: Local, hiTo: Local, loTo: Local): void => {
    f.op('local.get', x).op('local.get', m).op('i64x2.extmul_low_i32x4_u').op('local.set', lo);
    f.op('local.get', x).op('local.get', m).op('i64x2.extmul_high_i32x4_u').op('local.set', hi);
    f.op('local.get', lo).op('local.get', hi).shuffle(PRODUCT_HIGH_WORDS).op('local.set', hiTo);
    f.op('local.get', lo).op('local.get', hi).shuffle(PRODUCT_LOW_WORDS).op('local.set', loTo);
  };
  const [hi0, lo0, hi1, lo1] = [f.local('v128'), f.local('v128'), f.local('v128'), f.local('v128')];
  const [c1, c2, c3, c4] = v.shared;
  // Round 0 over [e + i, 0, s0, s1]: only word 0 differs between lanes, so s0's product is shared.
  f.op('local.get', e).op('i32x4.splat').op('local.get', v.laneIds).op('i32x4.add').op('local.set', R[0]);
  mulhilo(R[0], v.m0, hi0, lo0);
  f.op('local.get', hi0).op('local.get', c1).op('v128.xor').op('local.set', R[2]);
  f.op('local.get', lo0).op('local.set', R[3]);
  // Round 1: words 0 and 1 are still shared, so word 0's product is too.
  mulhilo(R[2], v.m1, hi1, lo1);
  f.op('local.get', hi1).op('local.get', c2).op('v128.xor').op('local.set', R[0]);
  f.op('local.get', lo1).op('local.set', R[1]);
  f.op('local.get', R[3]).op('local.get', c3).op('v128.xor').op('local.set', R[2]);
  f.op('local.get', c4).op('local.set', R[3]);
  for (const [k0, k1] of v.keys) {
    mulhilo(R[0], v.m0, hi0, lo0);
    mulhilo(R[2], v.m1, hi1, lo1);
    f.op('local.get', hi1).op('local.get', R[1]).op('v128.xor').op('local.get', k0).op('v128.xor').op('local.set', R[0]);
    f.op('local.get', hi0).op('local.get', R[3]).op('v128.xor').op('local.get', k1).op('v128.xor').op('local.set', R[2]);
    f.op('local.get', lo1).op('local.set', R[1]);
    f.op('local.get', lo0).op('local.set', R[3]);
  }
  out.forEach((l, i) => { f.op('local.get', at(R, i, 'word')).op('local.set', l); });
}

/**
 * Values of elements e..e+3 as vectors: float32 as one f32x4 into out[0];
 * float64 as two f64x2 (elements e, e+1 into out[0]; e+2, e+3 into out[1]).
 */
function emitRandomVector(f: FunctionBuilder, v: VectorKeys, e: Local, dtype: 'float64' | 'float32', out: readonly [Local] | readonly [Local, Local]): void {
  const w0 = f.local('v128');
  if (dtype === 'float32') {
    emitPhiloxVector(f, v, e, [w0]);
    f.op('local.get', w0).op('i32.const', 8).op('i32x4.shr_u').op('f32x4.convert_i32x4_u');
    f.op('local.get', v.scale24).op('f32x4.mul').op('local.set', out[0]);
    return;
  }
  const w1 = f.local('v128');
  emitPhiloxVector(f, v, e, [w0, w1]);
  f.op('local.get', w0).op('i32.const', 11).op('i32x4.shr_u').op('local.set', w0);
  for (const half of [0, 1]) {
    const low = (x: Local): void => {
      f.op('local.get', x);
      if (half === 1) f.op('local.get', x).shuffle(HIGH_TO_LOW);
    };
    low(w1); f.op('f64x2.convert_low_i32x4_u').op('local.get', v.scale32).op('f64x2.mul');
    low(w0); f.op('f64x2.convert_low_i32x4_u').op('local.get', v.scale53).op('f64x2.mul');
    f.op('f64x2.add').op('local.set', at(out, half, 'output'));
  }
}

/**
 * Leaves a random array's vector at unrolled step u on the stack: elements
 * cur + u * lanes onward. Four elements are generated at once, so float64
 * lanes (two) take the second pair at the next step; a lone step (unroll 1)
 * uses the first pair. `stash` holds the pairs between steps.
 */
function emitRandomLanes(f: FunctionBuilder, lanes: Lanes, dtype: KType, keys: RoundKeys, cur: Local, u: number,
  stash: readonly [Local, Local]): void {
  const wide = lanes === 'f64x2';
  if (dtype === 'int32') {
    // The counter: elements e..e+3 in i32x4, converted where the lanes are floats (only a cast to them reads it).
    f.op('local.get', cur);
    if (u > 0) f.op('i32.const', u * LANE_COUNT[lanes]).op('i32.add');
    f.op('i32x4.splat').v128i32(0, 1, 2, 3).op('i32x4.add');
    if (lanes !== 'i32x4') f.op(wide ? 'f64x2.convert_low_i32x4_s' : 'f32x4.convert_i32x4_s');
    return;
  }
  const v = keys.vector;
  if (!v) throw new InternalError('random lanes need the vector keys');
  if (!wide || u % 2 === 0) {
    const e = f.local('i32');
    f.op('local.get', cur);
    if (u > 0) f.op('i32.const', u * LANE_COUNT[lanes]).op('i32.add');
    f.op('local.set', e);
    if (dtype === 'float64') emitRandomVector(f, v, e, dtype, stash);
    else {
      emitRandomVector(f, v, e, 'float32', [stash[0]]);
      if (wide) {
        f.op('local.get', stash[0]).op('local.get', stash[0]).shuffle(HIGH_TO_LOW);
        f.op('f64x2.promote_low_f32x4').op('local.set', stash[1]);
        f.op('local.get', stash[0]).op('f64x2.promote_low_f32x4').op('local.set', stash[0]);
      }
    }
  }
  f.op('local.get', stash[wide && u % 2 === 1 ? 1 : 0]);
}

export { randomKeysOf, emitRandomScalar, emitRandomLanes };
export type { RandomWords, RoundKeys, VectorKeys };
