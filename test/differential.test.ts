// Random graphs on the WebAssembly backend against the reference evaluator
// (the oracle): bit-exact where every op is IEEE-exact and no floating-point
// sum or product is reordered; within a stated tolerance otherwise.
import fc from 'fast-check';
import * as da from '../packages/deferred-array/src/index.js';
import { OPS, UNARY_OPS, BINARY_OPS } from '../packages/deferred-array/src/ir/op-table.js';

type DType = da.DType;
const DTYPES: DType[] = [...da.DTYPES];

const SPECIAL: Record<DType, Array<number | bigint>> = {
  float64: [0, -0, 1, -1, 0.5, -2.5, 3, 1e300, -1e300, 5e-324, Infinity, -Infinity, NaN, 0.1, 7, -7],
  float32: [0, -0, 1, -1, 0.5, -2.5, 3, 3e38, -3e38, 1e-45, Infinity, -Infinity, NaN, 0.1, 7, -7],
  int32: [0, 1, -1, 2, -2, 7, -7, 100, 2147483647, -2147483648, 65536, 46341],
  uint32: [0, 1, 2, 7, 100, 65536, 2147483647, 2147483648, 4294967295, 4294967294],
  // Past 2^53 and at both ends: values a float64 would round or a 32-bit loop would wrap.
  int64: [0n, 1n, -1n, 2n, -7n, 100n, 2n ** 53n + 1n, -(2n ** 53n) - 1n, 2n ** 63n - 1n, -(2n ** 63n), 4294967296n, 3037000500n],
  uint64: [0n, 1n, 2n, 7n, 100n, 2n ** 53n + 1n, 2n ** 63n, 2n ** 64n - 1n, 2n ** 64n - 2n, 4294967296n],
  int16: [0, 1, -1, 2, -2, 7, -7, 100, 181, 32767, -32768, 256],
  uint16: [0, 1, 2, 7, 100, 255, 256, 32767, 32768, 65535],
  int8: [0, 1, -1, 2, -2, 7, -7, 100, 127, -128, 11],
  uint8: [0, 1, 2, 3, 7, 100, 127, 128, 200, 255],
  bool: [0, 1],
};

interface Leaf {
  readonly dtype: DType;
  readonly seed: number;
  /** How the leaf reaches its shape: plain, reversed along the last axis, transposed, broadcast from a smaller shape. */
  readonly view: 'plain' | 'reversed' | 'transposed' | 'broadcast' | 'scalar';
}

interface OpStep {
  readonly op: string;
  readonly args: readonly number[];
  readonly pin: 'none' | 'pin' | 'pinCse';
}

interface Program {
  readonly shape: readonly number[];
  readonly leaves: readonly Leaf[];
  readonly steps: readonly OpStep[];
  readonly final: 'none' | 'sum' | 'prod' | 'min' | 'max' | 'any' | 'all' | 'mean' | 'sumAxis0' | 'maxLast' | 'meanOuter' | 'allLast';
}

const SIZES = [0, 1, 2, 3, 4, 5, 7, 8, 9, 11, 16, 17, 33];

const program: fc.Arbitrary<Program> = fc.record({
  shape: fc.oneof(
    fc.tuple(fc.constantFrom(...SIZES)).map((s) => [...s]),
    fc.tuple(fc.constantFrom(1, 2, 3, 5), fc.constantFrom(...SIZES)).map((s) => [...s]),
    fc.tuple(fc.constantFrom(2, 3), fc.constantFrom(1, 2, 4), fc.constantFrom(3, 5, 9)).map((s) => [...s]),
    fc.constant([40000]), // several blocks, long vector loops
  ),
  leaves: fc.array(fc.record({
    dtype: fc.constantFrom(...DTYPES),
    seed: fc.nat(1000),
    view: fc.constantFrom('plain', 'reversed', 'transposed', 'broadcast', 'scalar'),
  }), { minLength: 1, maxLength: 3 }),
  steps: fc.array(fc.record({
    op: fc.constantFrom(...UNARY_OPS, ...BINARY_OPS, 'where', 'clip', ...DTYPES.map((d) => `astype:${d}`)),
    args: fc.array(fc.nat(20), { minLength: 3, maxLength: 3 }),
    // pinCse() moves the value into its own kernel and array, pin() into per-block temporaries: the results must not change.
    pin: fc.constantFrom('none', 'none', 'pin', 'pinCse'),
  }), { minLength: 1, maxLength: 6 }),
  final: fc.constantFrom('none', 'none', 'sum', 'prod', 'min', 'max', 'any', 'all', 'mean', 'sumAxis0', 'maxLast', 'meanOuter', 'allLast'),
});

function leafArray(leaf: Leaf, shape: readonly number[]): da.DeferredArray {
  const pool = SPECIAL[leaf.dtype];
  const make = (s: readonly number[]) => {
    const n = s.reduce((a, b) => a * b, 1);
    const values = Array.from({ length: n }, (_, i) => pool[(i * 7 + leaf.seed) % pool.length]!);
    return da.array(leaf.dtype === 'bool' ? values.map(Boolean) : values, { dtype: leaf.dtype }).reshape([...s]);
  };
  switch (leaf.view) {
    case 'plain': return make(shape);
    case 'reversed': return shape.length === 0 ? make(shape) : make(shape).get(`${shape.map(() => ':').slice(1).join(',')}${shape.length > 1 ? ',' : ''}::-1`);
    case 'transposed': return make([...shape].reverse()).T;
    case 'broadcast': return make(shape.map((d, i) => (i === 0 ? d : 1))).broadcastTo([...shape]);
    case 'scalar': return make([]);
  }
}

/**
 * The sign of a NaN that an operation computes is not specified (IEEE 754;
 * WebAssembly's NaN nondeterminism), so what signbit and copysign read the
 * sign from has its NaNs replaced by 0 first.
 */
function signSource(op: string, x: da.DeferredArray): da.DeferredArray {
  if ((op !== 'signbit' && op !== 'copysign') || (x.dtype !== 'float64' && x.dtype !== 'float32')) return x;
  return da.where(da.isnan(x), 0, x);
}

/** Builds the program's graph; steps that are not defined for their dtypes are skipped, as a user would. */
function build(p: Program): { out: da.DeferredArray; exact: boolean; scale?: da.DeferredArray; f32: boolean; amplified: boolean } {
  const vals = p.leaves.map((l) => leafArray(l, p.shape));
  let exact = true;
  // An inexact op computed in float32 (1 ulp of float32 apart) keeps that error when later widened.
  let f32 = false;
  // An inexact op after it may multiply that error by its condition number: power(x, c) by |c ln x|, 22 for
  // x = 3037000500 (each backend's float32 cos(1) within its bound, one float32 ulp apart, gave results 1.3e-6 apart).
  let amplified = false;
  for (const s of p.steps) {
    const pick = (k: number) => vals[s.args[k]! % vals.length]!;
    try {
      let v: da.DeferredArray;
      if (s.op.startsWith('astype:')) v = pick(0).astype(s.op.slice(7) as DType);
      else if (s.op === 'where') v = da.where(pick(0), pick(1), pick(2));
      else if (s.op === 'clip') v = da.clip(pick(0), pick(1), pick(2));
      else if ((UNARY_OPS as readonly string[]).includes(s.op)) v = (da as unknown as Record<string, (x: unknown) => da.DeferredArray>)[s.op]!(signSource(s.op, pick(0)));
      else v = (da as unknown as Record<string, (x: unknown, y: unknown) => da.DeferredArray>)[s.op]!(pick(0), signSource(s.op, pick(1)));
      if (!OPS[s.op as keyof typeof OPS]?.exact && !s.op.startsWith('astype') && s.op !== 'where' && s.op !== 'clip') {
        exact = false;
        if (f32) amplified = true;
        if (v.dtype === 'float32') f32 = true;
      }
      if (s.pin === 'pinCse') v.pinCse();
      if (s.pin === 'pin') v.pin();
      vals.push(v);
    } catch (e) {
      if (!(e instanceof da.DTypeError || e instanceof RangeError)) throw e;
    }
  }
  let out = vals[vals.length - 1]!;
  const float = out.dtype === 'float32' || out.dtype === 'float64';
  // Sums may cancel: their error is relative to the sum of magnitudes, not to the result.
  let scale: da.DeferredArray | undefined;
  const magnitudes = (x: da.DeferredArray, axis?: number) =>
    da.sum(da.abs(x.astype('float64')), axis === undefined ? undefined : { axis });
  try {
    switch (p.final) {
      case 'none': break;
      case 'sum': case 'mean':
        scale = magnitudes(out);
        if (p.final === 'mean') scale = scale.div(Math.max(1, out.size));
        out = (out as unknown as Record<string, () => da.DeferredArray>)[p.final]!();
        break;
      case 'sumAxis0': if (out.ndim > 0) { scale = magnitudes(out, 0); out = out.sum({ axis: 0 }); } break;
      case 'maxLast': if (out.ndim > 0 && out.shape[out.ndim - 1]! > 0) out = out.max({ axis: -1 }); break;
      case 'allLast': if (out.ndim > 0) out = out.all({ axis: -1, keepdims: true }); break;
      case 'meanOuter': if (out.ndim > 1) {
        const axes = [0, out.ndim - 1];
        scale = da.sum(da.abs(out.astype('float64')), { axis: axes }).div(Math.max(1, out.shape[0]! * out.shape[out.ndim - 1]!));
        out = out.mean({ axis: axes });
      } break;
      default: out = (out as unknown as Record<string, () => da.DeferredArray>)[p.final]!();
    }
  } catch (e) {
    if (!(e instanceof da.ShapeError)) throw e;
  }
  if (['sum', 'prod', 'mean', 'sumAxis0', 'meanOuter'].includes(p.final)) exact = exact && !float;
  if (p.final === 'mean' || p.final === 'meanOuter') exact = false;
  return { out, exact, f32, amplified, ...(scale ? { scale } : {}) };
}

function values(x: da.StdNdarray): number[] {
  const n = x.shape.reduce((a, b) => a * b, 1);
  const out: number[] = [];
  const idx = x.shape.map(() => 0);
  for (let k = 0; k < n; k++) {
    const v = x.get(...idx);
    out.push(typeof v === 'boolean' ? Number(v) : Number(v));
    for (let ax = x.shape.length - 1; ax >= 0; ax--) {
      if (++idx[ax]! < x.shape[ax]!) break;
      idx[ax] = 0;
    }
  }
  return out;
}

const float = (d: string): boolean => d === 'float32' || d === 'float64';

function run(out: da.DeferredArray, backend: 'wasm' | 'reference'): da.StdNdarray | Error {
  da.configure({ backend });
  try {
    return out.executeSync() as da.StdNdarray;
  } catch (e) {
    return e as Error;
  }
}

/**
 * Equal as IEEE values (NaN equals NaN, -0 differs from +0); when inexact,
 * within `rel`, or both below the smallest normal (`tiny`), where a reordered
 * product may round to 0 or to a subnormal.
 */
function close(a: number, b: number, exact: boolean, rel: number, tiny: number, scale: number): boolean {
  if (Number.isNaN(a) || Number.isNaN(b)) return Number.isNaN(a) && Number.isNaN(b);
  if (exact) return Object.is(a, b);
  if (a === b || (Math.abs(a) < tiny && Math.abs(b) < tiny)) return true;
  if (!Number.isFinite(a) || !Number.isFinite(b)) return false;
  return Math.abs(a - b) <= rel * Math.max(Math.abs(a), Math.abs(b), scale, 1e-300);
}

describe('WebAssembly backend against the reference evaluator', () => {
  const initial = da.configure().backend;
  beforeAll(() => da.configure({ errors: { divide: 'ignore', invalid: 'ignore' } }));
  afterAll(() => da.configure({ backend: initial, errors: { divide: 'warn', invalid: 'warn' } }));

  test('random graphs agree', () => {
    fc.assert(fc.property(program, (p) => {
      const { out, exact, scale, f32, amplified } = build(p);
      const ref = run(out, 'reference');
      const scaleValue = scale ? run(scale, 'reference') : undefined;
      const scales = scaleValue && !(scaleValue instanceof Error) ? values(scaleValue) : [];
      const got = run(out, 'wasm');
      if (ref instanceof Error || got instanceof Error) {
        expect(got instanceof Error ? got.name : 'no error').toBe(ref instanceof Error ? ref.name : 'no error');
        return;
      }
      expect(got.dtype).toBe(ref.dtype);
      expect(got.shape).toEqual(ref.shape);
      // A float32 op's ulp carried on through an inexact op is judged as a float32 result is.
      const rel = ref.dtype === 'float32' || amplified ? 1e-4 : f32 ? 1e-6 : 1e-9;
      const tiny = ref.dtype === 'float32' ? 1.1754943508222875e-38 : 2.2250738585072014e-308;
      const r = values(ref);
      const g = values(got);
      // A reordered product that overflows or underflows on the way may end in Inf, 0 or NaN (Inf * 0) either way.
      const lost = (v: number) => !Number.isFinite(v) || Math.abs(v) < tiny;
      // float32 sums accumulate in float64 on the wasm backend, so they need not overflow where float32 running sums do.
      const huge = ref.dtype === 'float32' ? 1e37 : 1e306;
      const overflowFree = (v: number, w: number) => ['sum', 'mean', 'sumAxis0', 'meanOuter'].includes(p.final)
        && float(ref.dtype) && !Number.isFinite(v) && (!Number.isFinite(w) || Math.abs(w) > huge);
      const orderFree = (v: number, w: number) =>
        (p.final === 'prod' && float(ref.dtype) && (lost(v) || lost(w))) || overflowFree(v, w);
      const bad = r.findIndex((v, i) => !orderFree(v, g[i]!) && !close(v, g[i]!, exact, rel, tiny, scales[i] ?? 0));
      if (bad >= 0) {
        throw new Error(`element ${bad}: reference ${r[bad]} vs wasm ${g[bad]} (exact=${exact})\n${out.explain()}`);
      }
    }), { ...replay(300), examples: [[POWER_OF_F32_COS]] });
  });

  // inlineThreshold 0: every kernel on the workers; 1: every kernel pooled, and each joined by the calling thread.
  test.each([['on the workers alone', 0, 'pooled'], ['joined by the calling thread', 1, 'joined']] as const)(
    'execute() %s gives executeSync()\'s results bit for bit', async (_, inlineThreshold, counter) => {
    const before = da.configure();
    da.configure({ backend: 'wasm', inlineThreshold, threads: 3 });
    const counted = da.stats()[counter];
    // Bit for bit, except NaN's sign and payload: WebAssembly leaves those
    // unspecified, and V8's two compilers (a fresh worker runs the baseline
    // one) may propagate either operand's NaN.
    const bytes = (x: da.StdNdarray): string => {
      const raw = x.data as Float64Array;
      const d = raw instanceof Float64Array || raw instanceof Float32Array ? raw.map((v) => (v === v ? v : NaN)) : raw;
      return Buffer.from(d.buffer, d.byteOffset, d.byteLength).toString('hex');
    };
    try {
      await fc.assert(fc.asyncProperty(program, async (p) => {
        const { out } = build(p);
        const settle = async (f: () => unknown): Promise<da.StdNdarray | Error> => {
          try {
            return (await f()) as da.StdNdarray;
          } catch (e) {
            return e as Error;
          }
        };
        const sync = await settle(() => out.executeSync());
        const pool = await settle(() => out.execute());
        if (sync instanceof Error || pool instanceof Error) {
          expect(pool instanceof Error ? pool.name : 'no error').toBe(sync instanceof Error ? sync.name : 'no error');
          return;
        }
        expect([pool.dtype, pool.shape]).toEqual([sync.dtype, sync.shape]);
        expect(bytes(pool)).toBe(bytes(sync));
      }), replay(150));
      expect(da.stats()[counter]).toBeGreaterThan(counted);
    } finally {
      da.configure({ inlineThreshold: before.inlineThreshold, threads: before.threads });
      await da.shutdown();
    }
  }, 300_000);
});

describe('results leave the same way they were computed', () => {
  // Bit for bit but NaN's sign and payload (see above: V8's two compilers differ there, even between two runs).
  const raw = (x: da.StdNdarray | Uint8Array | Float64Array): string => {
    const v = (ArrayBuffer.isView(x) ? x : x.data) as Float64Array;
    const d = v instanceof Float64Array || v instanceof Float32Array ? v.map((t) => (t === t ? t : NaN)) : v;
    // A bool ndarray keeps its bytes in a BooleanArray.
    const b = d as unknown as { buffer: ArrayBuffer; byteOffset: number; length: number };
    const bytes = ArrayBuffer.isView(d) ? d : new Uint8Array(b.buffer, b.byteOffset, b.length);
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
  };
  const CTORS = {
    float64: Float64Array, float32: Float32Array, int64: BigInt64Array, uint64: BigUint64Array, int32: Int32Array, uint32: Uint32Array, int16: Int16Array,
    uint16: Uint16Array, int8: Int8Array, uint8: Uint8Array, bool: Uint8Array,
  } as const;

  test.each(['wasm', 'reference'] as const)('views, plain outs and heap outs are the copying path bit for bit (%s)', async (backend) => {
    const before = da.configure();
    da.configure({ backend });
    try {
      await fc.assert(fc.asyncProperty(program, async (p) => {
        const { out } = build(p);
        let copy: da.StdNdarray;
        try {
          copy = out.executeSync() as da.StdNdarray;
        } catch {
          return;
        }
        const want = raw(copy);
        // The array's dtype: an int64 or uint64 ndarray says 'generic' (stdlib has neither).
        const dtype = out.dtype;
        const plain = new CTORS[dtype](copy.shape.reduce((a, b) => a * b, 1));
        (plain as Float64Array).fill((dtype === 'int64' || dtype === 'uint64' ? 7n : 7) as number);
        out.executeSync({ out: plain });
        expect(raw(plain)).toBe(want);
        await da.scope(async () => {
          if (dtype === 'bool') return;
          const view = await out.execute() as da.StdNdarray;
          expect(raw(view)).toBe(want);
          const heapOut = da.zeros(copy.shape, { dtype }).add(7).executeSync() as da.StdNdarray;
          out.executeSync({ out: heapOut });
          expect(raw(heapOut)).toBe(want);
          const again = da.zeros(copy.shape, { dtype }).executeSync() as da.StdNdarray;
          await out.execute({ out: again });
          expect(raw(again)).toBe(want);
        });
        expect(da.heapStats().views).toBe(0);
      }), replay(100));
    } finally {
      da.configure({ backend: before.backend });
    }
  }, 300_000);
});

/**
 * Found by a random seed: power(int64, cos(uint8)), the float32 cos one ulp
 * apart between the backends (each within its bound) and the power 22 times
 * that apart in relative terms.
 */
const POWER_OF_F32_COS: Program = {
  shape: [1, 9],
  leaves: [{ dtype: 'float64', seed: 0, view: 'plain' }, { dtype: 'uint8', seed: 0, view: 'reversed' }, { dtype: 'int64', seed: 0, view: 'plain' }],
  steps: [{ op: 'cos', args: [4, 0, 0], pin: 'none' }, { op: 'power', args: [2, 3, 0], pin: 'none' }],
  final: 'none',
};

/** CI replays the same graphs; DIFF_SEED=random (or a number) explores others, DIFF_RUNS more of them. */
function replay(runs: number): { numRuns: number; seed?: number } {
  return {
    numRuns: Number(process.env['DIFF_RUNS'] ?? runs),
    ...(process.env['DIFF_SEED'] === 'random' ? {} : { seed: Number(process.env['DIFF_SEED'] ?? 20261121) }),
  };
}
