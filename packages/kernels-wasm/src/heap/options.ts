// Validation of `new Heap(options)`: every option is checked up front and a
// bad one is named in the error, rather than surfacing later as an opaque
// WebAssembly.Memory failure.
import { DEFAULT_INITIAL_PAGES, HEAP_BASE, PAGE_BYTES, WASM32_MAX_PAGES } from './constants.js';
import { hostRegistry } from './lifetimes.js';
import type { RegistryFactory } from './lifetimes.js';

interface HeapOptions {
  /** Pages (64 KiB each) the memory starts with. Default 64 (4 MiB), or maxPages if that is lower. */
  readonly initialPages?: number;
  /** Pages the memory may grow to: at most, and by default, 65536 (4 GiB, the wasm32 limit). Lower it to test exhaustion. */
  readonly maxPages?: number;
  /** Share the memory with workers (default true). False suits single-threaded hosts without cross-origin isolation. */
  readonly shared?: boolean;
  /** Builds the FinalizationRegistry behind track(); tests pass a fake to drive cleanup by hand. */
  readonly registry?: RegistryFactory;
}

interface ResolvedHeapOptions {
  readonly initialPages: number;
  readonly maxPages: number;
  readonly shared: boolean;
  readonly registry: RegistryFactory;
}

const MIN_PAGES = Math.ceil(HEAP_BASE / PAGE_BYTES);

function pagesOption(name: string, value: unknown, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number') throw new TypeError(`Heap option ${name} must be a number of 64 KiB pages, got ${typeof value}.`);
  if (!Number.isInteger(value) || value < MIN_PAGES || value > max) {
    throw new RangeError(`Heap option ${name} must be an integer from ${MIN_PAGES} to ${max} pages, got ${value}.`);
  }
  return value;
}

function resolveHeapOptions(options: HeapOptions = {}): ResolvedHeapOptions {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(`Heap options must be an object, got ${options === null ? 'null' : typeof options}.`);
  }
  const maxPages = pagesOption('maxPages', options.maxPages, WASM32_MAX_PAGES, WASM32_MAX_PAGES);
  const initialPages = pagesOption('initialPages', options.initialPages, Math.min(DEFAULT_INITIAL_PAGES, maxPages), maxPages);
  if (options.shared !== undefined && typeof options.shared !== 'boolean') {
    throw new TypeError(`Heap option shared must be a boolean, got ${typeof options.shared}.`);
  }
  if (options.registry !== undefined && typeof options.registry !== 'function') {
    throw new TypeError(`Heap option registry must be a function (cleanup) => registry, got ${typeof options.registry}.`);
  }
  return { initialPages, maxPages, shared: options.shared ?? true, registry: options.registry ?? hostRegistry };
}

export { resolveHeapOptions };
export type { HeapOptions, ResolvedHeapOptions };
