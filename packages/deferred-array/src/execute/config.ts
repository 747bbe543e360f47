// Settings of a runtime (da.configure() changes the default runtime's):
// validated here, held by the runtime.
import { NotSupportedError } from '../ir/errors.js';
import { availableCores } from '../util/platform.js';
import { formatValue } from '../ir/format.js';

type ErrorAction = 'ignore' | 'warn' | 'raise';

type BackendName = 'reference' | 'wasm';

interface ErrorPolicy {
  /** Integer division, modulo or reciprocal by zero (the result is 0). */
  readonly divide: ErrorAction;
  /** astype() of NaN, ±Inf or out-of-range floats to an integer dtype (the result saturates, NaN gives 0). */
  readonly invalid: ErrorAction;
}

interface Config {
  readonly backend: BackendName;
  /** Workers execute() runs kernels on (executeSync() always uses the calling thread). */
  readonly threads: number;
  /**
   * Kernels with less work than this run on the calling thread even in
   * execute(): below it, dispatching to workers costs more than it saves.
   * Work is elements times a per-element weight (1 per array streamed, 16
   * per transcendental, 32 per host call). Above it, a launch short enough
   * per thread is joined by the calling thread in a worker's place. 0 sends
   * everything to the pool's workers, with no join.
   */
  readonly inlineThreshold: number;
  readonly errors: ErrorPolicy;
  /**
   * A streamed run (arrays loaded with mmapMode) takes this many bytes of
   * its widest value (an input, an intermediate or a result) at a time, at
   * most, in whole blocks of 16,384 elements. A run holds two chunks per
   * array it reads (the chunk read next and the one running) and one per
   * result, and the heap keeps the room it grew to.
   */
  readonly streamBytes: number;
  /**
   * After this many milliseconds with no run, the runtime gives its heap's
   * memory back where nothing holds it: cached copies of sources are
   * dropped and, when no view result or mutable array is left in it, the
   * heap starts over on a small memory (the workers and kernels are bound to
   * the new one as the next run starts). Infinity never does; shutdown()
   * always does.
   */
  readonly trimAfterIdleMs: number;
}

interface ConfigureOptions {
  backend?: BackendName;
  threads?: number;
  inlineThreshold?: number;
  errors?: Partial<ErrorPolicy>;
  streamBytes?: number;
  trimAfterIdleMs?: number;
}

/** What configuring needs to know of the registered backends: their names, and whether this host can run each. */
interface BackendChoice {
  readonly name: string;
  unavailable(): string | undefined;
}

type Choices = ReadonlyMap<string, BackendChoice>;

/**
 * Measured on the 2-core development machine (node
 * benchmarks/dist/threshold.js), with the calling thread joining short
 * launches in a worker's place: sin on 2 threads is even at 16 K elements
 * (0.3 M units) and 1.6x from 32 K (0.6 M); a streaming add is 0.9x at
 * 128 K elements (0.4 M units) and 1.2-1.6x from 256 K (0.8 M) to 2 M, where
 * one thread nearly saturates memory. Between the two crossovers, 2^19.
 */
const DEFAULT_INLINE_THRESHOLD = 1 << 19;

/**
 * 4 MiB: small enough that a chunk the file was just read into is still in
 * the caches when the kernels read it (a 1 GB mean streamed in 4 MiB chunks
 * took 141-192 ms here, in 64 MiB chunks 210-237 ms), and large enough that
 * a chunk's launch costs little beside its data.
 */
const DEFAULT_STREAM_BYTES = 4 * 2 ** 20;

/**
 * Five seconds: a burst of calls (a request, a frame's work) ends well
 * within it, so a busy program never trims between its calls, while an idle
 * server or tab holds its peak memory for seconds, not for its whole life.
 */
const DEFAULT_TRIM_AFTER_IDLE_MS = 5000;

const ACTIONS: readonly string[] = ['ignore', 'warn', 'raise'];

const isAction = (x: unknown): x is ErrorAction => typeof x === 'string' && ACTIONS.includes(x);

const isBackendName = (x: unknown, backends: Choices): x is BackendName =>
  (x === 'reference' || x === 'wasm') && backends.has(x);

/** 'reference' or 'wasm', as messages list the registered backends. */
const listNames = (backends: Choices): string => [...backends.keys()].sort().map((n) => `'${n}'`).join(' or ');

const environment = (name: string): string | undefined =>
  (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[name];

/**
 * DEFERRED_ARRAY_BACKEND in the environment picks the backend from the start;
 * else the first registered one this host can run (WebAssembly SIMD over a
 * shared heap where the host has it, the reference evaluator elsewhere).
 */
function initialBackend(backends: Choices): BackendName {
  const env = environment('DEFERRED_ARRAY_BACKEND');
  const runnable = [...backends.values()].filter((b) => b.unavailable() === undefined).map((b) => b.name);
  if (env !== undefined && isBackendName(env, backends) && runnable.includes(env)) return env;
  const fallback = runnable.find((n) => isBackendName(n, backends));
  if (env !== undefined && !isBackendName(env, backends) && fallback !== 'reference') {
    throw new TypeError(`DEFERRED_ARRAY_BACKEND must be ${listNames(backends)}; got ${formatValue(env)}`);
  }
  if (fallback === undefined || !isBackendName(fallback, backends)) throw new NotSupportedError('no registered backend runs on this host');
  return fallback;
}

/** DEFERRED_ARRAY_INLINE_THRESHOLD in the environment sets inlineThreshold from the start (0: every kernel of execute() on the pool's workers). */
function initialInlineThreshold(): number {
  const env = environment('DEFERRED_ARRAY_INLINE_THRESHOLD');
  if (env === undefined || env === '') return DEFAULT_INLINE_THRESHOLD;
  const t = env === 'Infinity' ? Infinity : Number(env);
  if (!(t >= 0) || (!Number.isInteger(t) && t !== Infinity)) {
    throw new RangeError(`DEFERRED_ARRAY_INLINE_THRESHOLD must be a whole number, 0 or more, or Infinity; got ${formatValue(env)}`);
  }
  return t;
}

/** A runtime's settings before configure(): the environment's, else the defaults. */
function initialConfig(backends: Choices): Config {
  return Object.freeze({
    backend: initialBackend(backends),
    threads: availableCores(),
    inlineThreshold: initialInlineThreshold(),
    errors: Object.freeze({ divide: 'warn', invalid: 'warn' }),
    streamBytes: DEFAULT_STREAM_BYTES,
    trimAfterIdleMs: DEFAULT_TRIM_AFTER_IDLE_MS,
  });
}

function checkAction(value: unknown, name: string): ErrorAction {
  if (!isAction(value)) {
    throw new TypeError(`configure: option errors.${name} must be one of 'ignore', 'warn', 'raise'; got ${formatValue(value)}`);
  }
  return value;
}

function checkBackend(value: unknown, backends: Choices): BackendName {
  const reason = typeof value === 'string' ? backends.get(value)?.unavailable() : undefined;
  if (reason !== undefined) throw new NotSupportedError(`configure: ${reason}; use 'reference'`);
  if (!isBackendName(value, backends)) {
    throw new TypeError(`configure: option backend must be ${listNames(backends)}; got ${formatValue(value)}`);
  }
  return value;
}

function checkThreads(t: unknown): number {
  if (typeof t !== 'number' || !Number.isInteger(t) || t < 1 || t > 1024) {
    throw new RangeError(`configure: option threads must be an integer from 1 to 1024; got ${String(t)}`);
  }
  return t;
}

function checkInlineThreshold(t: unknown): number {
  if (typeof t !== 'number' || !(t >= 0) || (!Number.isInteger(t) && t !== Infinity)) {
    throw new RangeError(`configure: option inlineThreshold must be a whole number of work units, 0 or more (Infinity keeps every kernel on the calling thread); got ${String(t)}`);
  }
  return t;
}

function checkStreamBytes(b: unknown): number {
  // Past 2^30 a chunk's read or write would outgrow what one file call takes (Node aborts at 2^31).
  if (typeof b !== 'number' || !Number.isInteger(b) || b < 2 ** 17 || b > 2 ** 30) {
    throw new RangeError(`configure: option streamBytes must be a whole number of bytes from 2^17 (one block of float64) to 2^30; got ${String(b)}`);
  }
  return b;
}

function checkTrimAfterIdleMs(t: unknown): number {
  if (typeof t !== 'number' || !(t >= 0) || (!Number.isFinite(t) && t !== Infinity)) {
    throw new RangeError(`configure: option trimAfterIdleMs must be a number of milliseconds, 0 or more (Infinity never trims); got ${String(t)}`);
  }
  return t;
}

function checkErrors(e: unknown, errors: ErrorPolicy): ErrorPolicy {
  if (typeof e !== 'object' || e === null) throw new TypeError(`configure: option errors must be an object like { divide: 'raise' }`);
  const given: { divide?: unknown; invalid?: unknown } = e;
  for (const key of Object.keys(e)) {
    if (key !== 'divide' && key !== 'invalid') {
      throw new TypeError(`configure: unknown option errors.${key} (expected divide, invalid)`);
    }
  }
  return Object.freeze({
    divide: given.divide === undefined ? errors.divide : checkAction(given.divide, 'divide'),
    invalid: given.invalid === undefined ? errors.invalid : checkAction(given.invalid, 'invalid'),
  });
}

/** `current` with `options` applied, each validated with an error naming it. */
function configured(current: Config, options: ConfigureOptions, backends: Choices): Config {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(`configure: options must be an object; got ${String(options)}`);
  }
  for (const key of Object.keys(options)) {
    if (!['backend', 'threads', 'inlineThreshold', 'errors', 'streamBytes', 'trimAfterIdleMs'].includes(key)) {
      throw new TypeError(`configure: unknown option '${key}' (expected backend, threads, inlineThreshold, errors, streamBytes, trimAfterIdleMs)`);
    }
  }
  return Object.freeze({
    backend: options.backend === undefined ? current.backend : checkBackend(options.backend, backends),
    threads: options.threads === undefined ? current.threads : checkThreads(options.threads),
    inlineThreshold: options.inlineThreshold === undefined ? current.inlineThreshold : checkInlineThreshold(options.inlineThreshold),
    errors: options.errors === undefined ? current.errors : checkErrors(options.errors, current.errors),
    streamBytes: options.streamBytes === undefined ? current.streamBytes : checkStreamBytes(options.streamBytes),
    trimAfterIdleMs: options.trimAfterIdleMs === undefined ? current.trimAfterIdleMs : checkTrimAfterIdleMs(options.trimAfterIdleMs),
  });
}

export { configured, initialConfig, DEFAULT_INLINE_THRESHOLD };
export type { BackendChoice, BackendName, Config, ConfigureOptions, ErrorPolicy, ErrorAction };
