// Compiles a KernelSpec to a WebAssembly module, cached by a structural hash
// of the spec: specs that differ only in sizes and outer strides are equal,
// so a graph rebuilt every iteration of a loop compiles once.
import { Lru } from '../lru.js';
import { InternalError } from '../internal-error.js';
import { isPredicate } from './op-rules.js';
import { heapIsShared } from '../support.js';
import { ModuleBuilder } from '../encode/index.js';
import type { FunctionBuilder, ValType } from '../encode/index.js';
import { ARGS, TEMPS, tempsOffset } from './args-layout.js';
import { scalarType } from './context.js';
import type { EmitContext } from './context.js';
import { emitKernel } from './emit-kernel.js';
import type { KernelOptions } from './emit-kernel.js';
import { emitColumnKernel } from './emit-columns.js';
import { emitContractionKernel } from './emit-contraction.js';
import type { KInstr, KType, KernelSpec, KUnary } from './kernel-spec.js';
import { MATH_BINARY, MATH_UNARY, isNativeBinary, isNativeUnary, mathName } from './native-ops.js';
import { simdLanes } from './simd-ops.js';
import { SCAN_CHAINS, chainsScans } from './emit-scan-chains.js';
import type { Lanes } from './simd-widths.js';
import { specJson, validateSpec } from './validate-spec.js';
import { MATH_FNS, emitMathInline, isMathAvailable, mathFunction } from '../math/index.js';
import type { MathFn } from '../math/index.js';

/** Where vectorised transcendentals come from; absent routines go to host functions. */
interface MathProvider {
  isAvailable(fn: string, lanes: 'f64x2' | 'f32x4'): boolean;
  /** Adds the routine to the module (once) and returns its function index. */
  functionIndex(m: ModuleBuilder, fn: string, lanes: 'f64x2' | 'f32x4'): number;
  /** Writes the routine into f where it stands (pops the operands, pushes the result); without it, a call. */
  inline?(m: ModuleBuilder, f: FunctionBuilder, fn: string, lanes: 'f64x2' | 'f32x4'): void;
}

/** A scalar host function, e.g. the reference evaluator's own semantics for an op. */
type HostFunction = (...args: number[]) => number;

interface CompiledModule {
  readonly hash: string;
  /** A small number standing for the hash in this process (what a worker task names the kernel by). */
  readonly id: number;
  readonly spec: KernelSpec;
  readonly lanes: Lanes | undefined;
  readonly bytes: Uint8Array;
  readonly module: WebAssembly.Module;
  /** Host function keys (`${op}.${type}`) the module imports, in import order. */
  readonly hostKeys: readonly string[];
  readonly compileMs: number;
  /** Blocks its claim loop takes at a time: SCAN_CHAINS for a scan run in groups (emit-scan-chains.ts), else 1. */
  readonly claimGroup: number;
  /** A scan kernel that finds its pieces' starting values itself where each block is one piece (emit-scan-chains.ts). */
  readonly scanLookBack: boolean;
}

/** The package's own vector math library (src/math). */
const VECTOR_MATH: MathProvider = {
  isAvailable: (fn, lanes) => isMathFn(fn) && isMathAvailable(fn, lanes),
  functionIndex: (m, fn, lanes) => mathFunction(m, fn as MathFn, lanes),
  inline: (m, f, fn, lanes) => emitMathInline(m, f, fn as MathFn, lanes),
};

const isMathFn = (fn: string): fn is MathFn => (MATH_FNS as readonly string[]).includes(fn);

/** The structural hash: the spec itself, canonically printed (with the math library in use). */
const specHash = (spec: KernelSpec, math: MathProvider = VECTOR_MATH): string =>
  `${math === VECTOR_MATH ? 'vm' : 'custom'}:${specJson(spec)}`;

/** A spec's body and its temporaries' bodies. */
const bodiesOf = (spec: KernelSpec): Array<readonly KInstr[]> => [spec.body, ...(spec.temps ?? []).map((t) => t.kernel.body)];

/** Host keys a spec needs: ops that are neither native nor in the math library. */
function hostKeysOf(spec: KernelSpec, math: MathProvider): string[] {
  const keys = new Set<string>();
  const lanesOf = (t: KType): 'f64x2' | 'f32x4' | undefined => (t === 'float64' ? 'f64x2' : t === 'float32' ? 'f32x4' : undefined);
  for (const body of bodiesOf(spec)) for (const ins of body) {
    if (ins.op !== 'unary' && ins.op !== 'binary') continue;
    const t = body[ins.op === 'unary' ? ins.arg : ins.args[0]]!.type;
    const native = ins.op === 'unary' ? isNativeUnary(ins.fn, t) : isNativeBinary(ins.fn, t);
    const isMath = ins.op === 'unary' ? MATH_UNARY.has(ins.fn) : MATH_BINARY.has(ins.fn);
    const lanes = lanesOf(t);
    if (native || (isMath && lanes && math.isAvailable(mathName(ins.fn), lanes))) continue;
    keys.add(`${ins.fn}.${t}`);
  }
  return [...keys];
}

function hostSignature(key: string, spec: KernelSpec): { params: ValType[]; result: ValType } {
  const [fn, t] = key.split('.') as [string, KType];
  const ins = bodiesOf(spec).flat().find((i): i is Extract<KInstr, { op: 'binary' }> => i.op === 'binary' && i.fn === fn);
  const w = scalarType(t);
  // A predicate's result is a bool, an i32 like every bool in scalar code.
  return { params: ins ? [w, w] : [w], result: !ins && isPredicate(fn as KUnary) ? 'i32' : w };
}

/**
 * `claim(args, blocks) -> ran`: takes `group` blocks at a time (one, or a
 * scan's group, emit-scan-chains.ts) with an atomic add on the launch block's
 * claim word and runs them, until none are left. Groups are claimed in block
 * order, which a scan's look-back relies on. A worker calls it once
 * per task; claiming from JS cost a call into WebAssembly, a fresh view of the
 * shared buffer and an Atomics.add per block, which took a fifth of a streaming
 * kernel's time at 16 Ki elements per block.
 *
 * A kernel with pinned temporaries first takes a part of the scratch area with
 * an atomic add on the slot counter: the claims running at once are at most the
 * pool's threads, which take consecutive counts, so modulo the number of parts
 * no two of them share one.
 */
function emitClaimLoop(m: ModuleBuilder, kernelIndex: number, temps: number | undefined, group: number): void {
  const [, f] = m.func('claim', ['i32', 'i32'], ['i32']);
  const [args, blocks] = [f.param(0), f.param(1)];
  const [b, ran, scratch, end] = [f.local('i32'), f.local('i32'), f.local('i32'), f.local('i32')];
  if (temps !== undefined) {
    f.op('local.get', args).mem('i32.load', { offset: temps + TEMPS.scratch });
    f.op('local.get', args).op('i32.const', 1).mem('i32.atomic.rmw.add', { offset: temps + TEMPS.slot });
    f.op('local.get', args).mem('i32.load', { offset: temps + TEMPS.slots }).op('i32.rem_u');
    f.op('local.get', args).mem('i32.load', { offset: temps + TEMPS.perThread }).op('i32.mul').op('i32.add').op('local.set', scratch);
  }
  f.block().loop();
  f.op('local.get', args).op('i32.const', group).mem('i32.atomic.rmw.add', { offset: ARGS.claim }).op('local.tee', b);
  f.op('local.get', blocks).op('i32.ge_u').op('br_if', 1);
  // end = min(b + group, blocks)
  f.op('local.get', b).op('i32.const', group).op('i32.add').op('local.tee', end).op('local.get', blocks)
    .op('local.get', end).op('local.get', blocks).op('i32.lt_u').op('select').op('local.set', end);
  f.op('local.get', args).op('local.get', b).op('local.get', end).op('local.get', scratch).op('call', kernelIndex);
  f.op('local.get', ran).op('local.get', end).op('i32.add').op('local.get', b).op('i32.sub').op('local.set', ran);
  f.op('br', 0).end().end();
  f.op('local.get', ran);
}

/** `shared`: whether the memory it imports is shared (the heap's), or not (a memory private to the calling thread). */
function buildModule(spec: KernelSpec, math: MathProvider, hash: string, id: number, shared = heapIsShared()): CompiledModule {
  const t0 = performance.now();
  validateSpec(spec);
  const m = new ModuleBuilder();
  m.importMemory({ module: 'env', name: 'memory', initial: 1, maximum: 65536, shared });
  const hostKeys = hostKeysOf(spec, math);
  const hostIndex = new Map(hostKeys.map((k) => {
    const { params, result } = hostSignature(k, spec);
    return [k, m.importFunction('host', k, params, [result])];
  }));
  const lanes = simdLanes(spec, (fn, l) => math.isAvailable(fn, l));
  const contextOf = (f: FunctionBuilder): EmitContext => ({
    f,
    args: f.param(0),
    host: (key) => {
      const idx = hostIndex.get(key);
      if (idx === undefined) throw new Error(`internal: host function ${key} was not imported`);
      return idx;
    },
    math: (fn, l) => {
      if (!math.isAvailable(fn, l)) return undefined;
      const call = (): void => { f.op('call', math.functionIndex(m, fn, l)); };
      return { call, inline: math.inline ? () => math.inline!(m, f, fn, l) : call };
    },
  });
  // Each temporary's computation: temp<i>(args, lo, hi, base) over [lo, hi) of its own space, writing at base.
  const tempFns = (spec.temps ?? []).map((t, i) => {
    const [index, tf] = m.func(`temp${i}`, ['i32', 'i32', 'i32', 'i32'], [], false);
    const tLanes = simdLanes(t.kernel, (fn, l) => math.isAvailable(fn, l));
    emitKernel(contextOf(tf), t.kernel, tLanes, tf.param(1), tf.param(2), { range: true, pointers: new Map([[t.out, tf.param(3)]]) });
    return index;
  });
  const temps = spec.temps ? tempsOffset(spec) : undefined;
  /** What a kernel function (args, b0, b1, scratch) tells emitKernel about the temporaries. */
  // Scans in groups of blocks; without host functions (which may throw mid-kernel), looking back for their starts.
  const claimGroup = !spec.contraction && spec.mode !== 'columns' && chainsScans(spec, lanes) ? SCAN_CHAINS : 1;
  const scanLookBack = claimGroup > 1 && hostKeys.length === 0;
  const kernelOptions = (f: FunctionBuilder): KernelOptions => ({
    ...(temps === undefined ? {} : { temps: { fns: tempFns, scratch: f.param(3), offset: temps } }),
    ...(scanLookBack ? { scanLookBack } : {}),
  });
  let kernelIndex: number;
  if (spec.contraction) {
    kernelIndex = emitContractionKernel(m, spec, lanes, contextOf, kernelOptions);
  } else {
    const [index, f] = m.func('kernel', ['i32', 'i32', 'i32', 'i32'], []);
    kernelIndex = index;
    if (spec.mode === 'columns') emitColumnKernel(contextOf(f), spec, lanes, f.param(1), f.param(2));
    else emitKernel(contextOf(f), spec, lanes, f.param(1), f.param(2), kernelOptions(f));
  }
  emitClaimLoop(m, kernelIndex, temps, claimGroup);
  const bytes = m.toBytes();
  const module = new WebAssembly.Module(bytes as Uint8Array<ArrayBuffer>);
  return Object.freeze({ hash, id, spec, lanes, bytes, module, hostKeys, compileMs: performance.now() - t0, claimGroup, scanLookBack });
}

/**
 * Compiled modules kept, by spec hash, least recently used dropped first: a
 * program cycling through more distinct kernels than this compiles some again
 * (the compiled code of each is tens of KiB). Ids are never reused, so a pool
 * worker holding an evicted kernel's id cannot mistake a new kernel for it.
 */
const MODULE_CACHE = 256;

/**
 * A cache of compiled kernels with its own counters: each runtime of
 * deferred-array keeps one, so its statistics count only its own compiles.
 */
class KernelCache {
  // Ids are unique across caches: workers of different pools share the heap's instances.
  static #lastId = 0;
  readonly #modules = new Lru<string, CompiledModule>({ max: MODULE_CACHE });
  #compiled = 0;
  #compileMs = 0;

  compile(spec: KernelSpec, math: MathProvider = VECTOR_MATH): CompiledModule {
    const hash = specHash(spec, math);
    const hit = this.#modules.get(hash);
    if (hit) return hit;
    const result = buildModule(spec, math, hash, ++KernelCache.#lastId);
    mathOf.set(result, math);
    this.#modules.set(hash, result);
    this.#compiled++;
    this.#compileMs += result.compileMs;
    return result;
  }

  /** Modules compiled so far (cache misses): tests read it to prove reuse. */
  get compiled(): number {
    return this.#compiled;
  }

  /** Milliseconds spent generating and compiling them. */
  get compileMs(): number {
    return this.#compileMs;
  }

  /** Modules the cache holds now (at most MODULE_CACHE). */
  get size(): number {
    return this.#modules.size;
  }
}

/** The math each cached module was built with, for its unshared twin. */
const mathOf = new WeakMap<CompiledModule, MathProvider>();
const unsharedTwins = new WeakMap<CompiledModule, CompiledModule>();

/**
 * `kernel` built again to import an unshared memory, once per kernel (the
 * same code, id and hash; instances are kept per memory, so the two never
 * meet): for a heap private to the calling thread, whose copies in and out
 * of ordinary arrays are plain memory copies, where V8 copies to and from a
 * shared buffer a word at a time (a sixth of the speed in the caches). The
 * kernel itself where the heap is not shared.
 */
function unsharedKernel(kernel: CompiledModule): CompiledModule {
  if (!heapIsShared()) return kernel;
  let twin = unsharedTwins.get(kernel);
  if (twin) return twin;
  const math = mathOf.get(kernel);
  if (!math) throw new InternalError('unsharedKernel was given a kernel no KernelCache compiled');
  unsharedTwins.set(kernel, (twin = buildModule(kernel.spec, math, kernel.hash, kernel.id, false)));
  return twin;
}

/** The cache of callers that keep none of their own. */
const shared = new KernelCache();

const compileKernel = (spec: KernelSpec, math?: MathProvider): CompiledModule => shared.compile(spec, math);
const compileCount = (): number => shared.compiled;
const compileMs = (): number => shared.compileMs;
const moduleCacheSize = (): number => shared.size;

export { compileKernel, compileCount, compileMs, specHash, moduleCacheSize, MODULE_CACHE, KernelCache, unsharedKernel };
export type { CompiledModule, MathProvider, HostFunction };
