// Heap errors carry a string `code` like every error of the project, so the
// deferred-array side can map them onto its own classes (code 'HEAP' is its
// HeapError) and so they survive a trip through a worker by name and code.
import { WASM32_MAX_PAGES, PAGE_BYTES } from './constants.js';

const WASM32_LIMIT_BYTES = WASM32_MAX_PAGES * PAGE_BYTES;

/** Renders a byte count for people: exact bytes plus a binary-prefixed size. */
function formatBytes(bytes: number): string {
  const units = ['KiB', 'MiB', 'GiB'] as const;
  let value = bytes;
  let unit = '';
  for (const u of units) {
    if (value < 1024) break;
    value /= 1024;
    unit = u;
  }
  const exact = `${bytes.toLocaleString('en-US')} bytes`;
  return unit === '' ? exact : `${exact} (${value.toFixed(1)} ${unit})`;
}

interface HeapExhaustedDetails {
  /** Bytes the caller asked for. */
  readonly requested: number;
  /** The largest allocation that could succeed now, growing the memory up to `limit` if need be. */
  readonly available: number;
  /** The most bytes this heap's memory may ever hold (maxPages * 64 KiB; 4 GiB for wasm32). */
  readonly limit: number;
  /** Bytes not in use, counting every free fragment and the memory still allowed to grow. */
  readonly freeBytes: number;
  readonly bytesInUse: number;
  readonly liveAllocations: number;
  /** Set when the limit was not reached but the host refused to grow the memory. */
  readonly hostRefused?: boolean;
}

function exhaustedMessage(d: HeapExhaustedDetails): string {
  const parts = [
    `The array heap cannot allocate ${formatBytes(d.requested)}: only ${formatBytes(d.available)} are available` +
      ` (${formatBytes(d.bytesInUse)} are in use by ${d.liveAllocations} live allocation(s)).`,
  ];
  if (d.hostRefused) parts.push('The host refused to grow the WebAssembly memory (out of memory).');
  else if (d.freeBytes >= d.requested) parts.push(`${formatBytes(d.freeBytes)} are free in total, but not in one piece.`);
  parts.push(`wasm32 caps the heap at 4 GiB (${WASM32_MAX_PAGES} pages of 64 KiB)`);
  if (d.limit < WASM32_LIMIT_BYTES) parts[parts.length - 1] += `, and this heap is capped lower, at ${formatBytes(d.limit)}`;
  parts[parts.length - 1] += '.';
  parts.push('Dispose arrays you no longer need (dispose() or `using`), or process the data in smaller chunks.');
  return parts.join(' ');
}

/** An allocation the heap cannot satisfy, even after growing to its page limit. */
class HeapExhaustedError extends RangeError {
  readonly code = 'HEAP';
  readonly requested: number;
  readonly available: number;
  readonly limit: number;

  constructor(details: HeapExhaustedDetails, options?: { cause?: unknown }) {
    super(exhaustedMessage(details), options);
    this.name = 'HeapExhaustedError';
    this.requested = details.requested;
    this.available = details.available;
    this.limit = details.limit;
  }
}

type HeapPointerProblem = 'double-free' | 'unknown' | 'interior' | 'already-tracked';

/** A pointer the heap did not hand out, or no longer owns: a bug in the caller, never a data condition. */
class HeapPointerError extends Error {
  readonly code = 'HEAP_POINTER';
  readonly ptr: number;
  readonly problem: HeapPointerProblem;

  constructor(ptr: number, problem: HeapPointerProblem, message: string) {
    super(message);
    this.name = 'HeapPointerError';
    this.ptr = ptr;
    this.problem = problem;
  }
}

export { HeapExhaustedError, HeapPointerError, formatBytes, WASM32_LIMIT_BYTES };
export type { HeapExhaustedDetails, HeapPointerProblem };
