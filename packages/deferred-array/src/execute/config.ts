// da.configure(): validated, process-wide settings.
import { detectSupport } from 'kernels-wasm';
import { NotSupportedError } from '../ir/errors.js';
import { availableCores } from '../util/platform.js';
import { formatValue } from '../ir/format.js';

type ErrorAction = 'ignore' | 'warn' | 'raise';

interface ErrorPolicy {
  /** Integer division, modulo or reciprocal by zero (the result is 0). */
  readonly divide: ErrorAction;
  /** astype() of NaN, ±Inf or out-of-range floats to an integer dtype (the result saturates, NaN gives 0). */
  readonly invalid: ErrorAction;
}

interface Config {
  readonly backend: 'reference' | 'wasm';
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
}

interface ConfigureOptions {
  backend?: 'reference' | 'wasm';
  threads?: number;
  inlineThreshold?: number;
  errors?: Partial<ErrorPolicy>;
}

/**
 * Measured on the 2-core development machine (node
 * benchmarks/dist/threshold.js), with the calling thread joining short
 * launches in a worker's place: sin on 2 threads is even at 16 K elements
 * (0.3 M units) and 1.6x from 32 K (0.6 M); a streaming add is 0.9x at
 * 128 K elements (0.4 M units) and 1.2-1.6x from 256 K (0.8 M) to 2 M, where
 * one thread nearly saturates memory. Between the two crossovers, 2^19.
 */
const DEFAULT_INLINE_THRESHOLD = 1 << 19;

const ACTIONS: readonly ErrorAction[] = ['ignore', 'warn', 'raise'];

const support = detectSupport();
// Without shared memory the WebAssembly backend still runs, on the calling thread (wasm/pool.ts says so once).
const wasmUsable = support.wasm && support.simd;

/** DEFERRED_ARRAY_BACKEND=reference in the environment picks the reference evaluator from the start. */
function initialBackend(): 'reference' | 'wasm' {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.['DEFERRED_ARRAY_BACKEND'];
  if (env === 'reference' || !wasmUsable) return 'reference';
  if (env !== undefined && env !== 'wasm') {
    throw new TypeError(`DEFERRED_ARRAY_BACKEND must be 'reference' or 'wasm'; got ${formatValue(env)}`);
  }
  return 'wasm';
}

/** DEFERRED_ARRAY_INLINE_THRESHOLD in the environment sets inlineThreshold from the start (0: every kernel of execute() on the pool's workers). */
function initialInlineThreshold(): number {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.['DEFERRED_ARRAY_INLINE_THRESHOLD'];
  if (env === undefined || env === '') return DEFAULT_INLINE_THRESHOLD;
  const t = env === 'Infinity' ? Infinity : Number(env);
  if (!(t >= 0) || (!Number.isInteger(t) && t !== Infinity)) {
    throw new RangeError(`DEFERRED_ARRAY_INLINE_THRESHOLD must be a whole number, 0 or more, or Infinity; got ${formatValue(env)}`);
  }
  return t;
}

let current: Config = Object.freeze({
  // WebAssembly SIMD over a shared heap where the host has it; the reference evaluator elsewhere.
  backend: initialBackend(),
  threads: availableCores(),
  inlineThreshold: initialInlineThreshold(),
  errors: Object.freeze({ divide: 'warn', invalid: 'warn' }),
});

function checkAction(value: unknown, name: string): ErrorAction {
  if (!ACTIONS.includes(value as ErrorAction)) {
    throw new TypeError(`configure: option errors.${name} must be one of 'ignore', 'warn', 'raise'; got ${formatValue(value)}`);
  }
  return value as ErrorAction;
}

/** Changes settings and returns the whole configuration now in force. */
function configure(options: ConfigureOptions = {}): Config {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(`configure: options must be an object; got ${String(options)}`);
  }
  for (const key of Object.keys(options)) {
    if (!['backend', 'threads', 'inlineThreshold', 'errors'].includes(key)) {
      throw new TypeError(`configure: unknown option '${key}' (expected backend, threads, inlineThreshold, errors)`);
    }
  }
  let { backend, threads, inlineThreshold, errors } = current;
  if (options.backend !== undefined) {
    if (options.backend === 'wasm' && !wasmUsable) {
      throw new NotSupportedError(
        `configure: backend 'wasm' needs WebAssembly with SIMD, which this host lacks ` +
        `(${formatValue(support)}); use 'reference'`,
      );
    }
    if (options.backend !== 'reference' && options.backend !== 'wasm') {
      throw new TypeError(`configure: option backend must be 'reference' or 'wasm'; got ${formatValue(options.backend)}`);
    }
    backend = options.backend;
  }
  if (options.threads !== undefined) {
    const t = options.threads;
    if (typeof t !== 'number' || !Number.isInteger(t) || t < 1 || t > 1024) {
      throw new RangeError(`configure: option threads must be an integer from 1 to 1024; got ${String(t)}`);
    }
    threads = t;
  }
  if (options.inlineThreshold !== undefined) {
    const t = options.inlineThreshold;
    if (typeof t !== 'number' || !(t >= 0) || (!Number.isInteger(t) && t !== Infinity)) {
      throw new RangeError(`configure: option inlineThreshold must be a whole number of work units, 0 or more (Infinity keeps every kernel on the calling thread); got ${String(t)}`);
    }
    inlineThreshold = t;
  }
  if (options.errors !== undefined) {
    const e = options.errors;
    if (typeof e !== 'object' || e === null) throw new TypeError(`configure: option errors must be an object like { divide: 'raise' }`);
    for (const key of Object.keys(e)) {
      if (key !== 'divide' && key !== 'invalid') {
        throw new TypeError(`configure: unknown option errors.${key} (expected divide, invalid)`);
      }
    }
    errors = Object.freeze({
      divide: e.divide === undefined ? errors.divide : checkAction(e.divide, 'divide'),
      invalid: e.invalid === undefined ? errors.invalid : checkAction(e.invalid, 'invalid'),
    });
  }
  current = Object.freeze({ backend, threads, inlineThreshold, errors });
  return current;
}

const getConfig = (): Config => current;

export { configure, getConfig, DEFAULT_INLINE_THRESHOLD };
export type { Config, ConfigureOptions, ErrorPolicy, ErrorAction };
