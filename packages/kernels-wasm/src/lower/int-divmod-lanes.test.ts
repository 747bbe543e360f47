// Integer floorDivide, mod and fmod in vector lanes against the scalar loop,
// and both against NumPy's rules: every pair of 8-bit values, and for the
// wider types their extremes, small divisors of both signs, zeros and random
// pairs. Each pair runs in the type's own lanes and in i32x4 (the result also
// cast to int32), and in the scalar loop (a strided operand), with blocks
// that end runs in the scalar tail; results and divide flags must match bit
// for bit.
import { compileKernel } from './compile.js';
import type { InnerStride, KType, KernelSpec } from './kernel-spec.js';
import { KTYPE_BYTES } from './kernel-spec.js';
import { instantiate, launch } from './launch.js';
import { noHost, testHeap } from './test-heap.js';
import { VIEW_CONSTRUCTORS } from '../heap/dtypes.js';

type IntType = 'int32' | 'uint32' | 'int16' | 'uint16' | 'int8' | 'uint8';
type Fn = 'floorDivide' | 'mod' | 'fmod';

const RANGE: Record<IntType, [number, number]> = {
  int32: [-(2 ** 31), 2 ** 31 - 1], uint32: [0, 2 ** 32 - 1], int16: [-32768, 32767], uint16: [0, 65535], int8: [-128, 127], uint8: [0, 255],
};
const LANES: Record<IntType, string> = { int32: 'i32x4', uint32: 'i32x4', int16: 'i16x8', uint16: 'i16x8', int8: 'i8x16', uint8: 'i8x16' };

/** NumPy's result of a (fn) b in t (0 for a zero divisor), in exact arithmetic wrapped to t. */
function model(t: IntType, fn: Fn, a: number, b: number): number {
  if (b === 0) return 0;
  const q = Math.trunc(a / b);
  const r = a - q * b; // exact: |q b| <= |a| < 2^32
  let v = fn === 'fmod' ? r : fn === 'mod' ? (r !== 0 && (r < 0) !== (b < 0) ? r + b : r) : (r !== 0 && (r < 0) !== (b < 0) ? q - 1 : q);
  const [lo, hi] = RANGE[t];
  if (v > hi) v -= hi - lo + 1; // int MIN // -1 wraps to MIN
  return v;
}

/** A deterministic generator (mulberry32), so that a failure names its pair again. */
function generator(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let x = Math.imul(s ^ (s >>> 15), 1 | s);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

/** Pairs to divide: every pair for 8-bit types; otherwise the specials crossed, then random values over small and whole-range divisors. */
function pairsOf(t: IntType): [number[], number[]] {
  const [lo, hi] = RANGE[t];
  const a: number[] = [];
  const b: number[] = [];
  if (hi - lo < 256) {
    for (let x = lo; x <= hi; x++) for (let y = lo; y <= hi; y++) { a.push(x); b.push(y); }
    return [a, b];
  }
  const specials = [lo, lo + 1, hi, hi - 1, 0, 1, 2, 3, 7, 10, 255, 256, 65535, 65536, -1, -2, -3, -7, -10, -256, Math.floor(hi / 3)].filter((v) => v >= lo && v <= hi);
  for (const x of specials) for (const y of specials) { a.push(x); b.push(y); }
  const rand = generator(KTYPE_BYTES[t] * 31 + lo);
  const any = (): number => lo + Math.floor(rand() * (hi - lo + 1));
  for (let i = 0; i < 20000; i++) {
    a.push(any());
    const small = Math.floor(rand() * 41) - 20;
    b.push(i % 2 === 0 && small >= lo ? small : any());
  }
  return [a, b];
}

const arr = (dtype: KType, role: 'in' | 'out', inner: InnerStride = 'contiguous') => ({ dtype, role, inner }) as const;

/** fn(a, b) stored in t, and with `widen` also cast to int32 (which puts the kernel in i32x4 lanes). */
function divisionOf(t: IntType, fn: Fn, widen: boolean, inner: InnerStride): KernelSpec {
  return {
    ndim: 1,
    arrays: [arr(t, 'in', inner), arr(t, 'in'), arr(t, 'out'), ...(widen ? [arr('int32', 'out')] : [])],
    body: [
      { op: 'load', array: 0, type: t },
      { op: 'load', array: 1, type: t },
      { op: 'binary', fn, args: [0, 1], type: t },
      { op: 'store', array: 2, arg: 2, type: t },
      ...(widen ? [{ op: 'cast', arg: 2, type: 'int32' }, { op: 'store', array: 3, arg: 4, type: 'int32' }] as const : []),
    ],
    slots: 0,
  };
}

function run(spec: KernelSpec, a: readonly number[], b: readonly number[], blockSize: number) {
  const heap = testHeap(512);
  const n = a.length;
  const ptrs = spec.arrays.map((x, k) => {
    const p = heap.alloc(Math.max(1, n) * KTYPE_BYTES[x.dtype]);
    if (x.role === 'in') new (VIEW_CONSTRUCTORS[x.dtype] as Float64ArrayConstructor)(heap.memory.buffer, p, n).set(k === 0 ? a : b);
    return p;
  });
  const compiled = compileKernel(spec);
  const fn = instantiate(compiled, heap.memory, { hostFunction: noHost });
  const r = launch(compiled, heap, fn, { shape: [n], arrays: spec.arrays.map((_, k) => ({ ptr: ptrs[k]!, strides: [1] })), blockSize });
  const outs = spec.arrays.flatMap((x, k) => (x.role === 'out' ? [Array.from(new (VIEW_CONSTRUCTORS[x.dtype] as Float64ArrayConstructor)(heap.memory.buffer, ptrs[k]!, n))] : []));
  return { outs, flags: r.flags, lanes: compiled.lanes };
}

describe('integer floorDivide, mod and fmod in vector lanes', () => {
  const cases = (Object.keys(RANGE) as IntType[]).flatMap((t) => (['floorDivide', 'mod', 'fmod'] as const).flatMap((fn) => [false, true].map((widen) => ({ t, fn, widen }))));
  test.each(cases)('$t $fn (cast to int32 too: $widen): bit for bit the scalar loop and NumPy, flags included', ({ t, fn, widen }) => {
    const [a, b] = pairsOf(t);
    const want = a.map((x, i) => model(t, fn, x, b[i]!));
    const lanes = widen ? 'i32x4' : LANES[t];
    for (const blockSize of [4096, 13]) {
      const v = run(divisionOf(t, fn, widen, 'contiguous'), a, b, blockSize);
      const s = run(divisionOf(t, fn, widen, 'strided'), a, b, blockSize);
      expect(v.lanes).toBe(lanes);
      expect(s.lanes).toBeUndefined();
      const first = v.outs[0]!.findIndex((x, i) => x !== s.outs[0]![i]);
      expect(first === -1 ? 'all equal' : `${a[first]} ${fn} ${b[first]}: ${v.outs[0]![first]} in lanes, ${s.outs[0]![first]} scalar`).toBe('all equal');
      expect(v.outs).toEqual(s.outs);
      const wrong = s.outs[0]!.findIndex((x, i) => x !== want[i]);
      expect(wrong === -1 ? 'all as NumPy' : `${a[wrong]} ${fn} ${b[wrong]}: ${s.outs[0]![wrong]}, NumPy ${want[wrong]}`).toBe('all as NumPy');
      expect(v.flags).toEqual(s.flags);
      expect(v.flags.divide).toBe(b.filter((y) => y === 0).length);
    }
  });

  test.each(['floorDivide', 'mod', 'fmod'] as const)('int64 and uint64 %s keep the scalar loop: no float holds their quotients exactly', (fn) => {
    for (const t of ['int64', 'uint64'] as const) {
      const spec: KernelSpec = {
        ndim: 1, arrays: [arr(t, 'in'), arr(t, 'in'), arr(t, 'out')],
        body: [{ op: 'load', array: 0, type: t }, { op: 'load', array: 1, type: t }, { op: 'binary', fn, args: [0, 1], type: t }, { op: 'store', array: 2, arg: 2, type: t }],
        slots: 0,
      };
      expect(compileKernel(spec).lanes).toBeUndefined();
    }
  });
});
