// The doorbell: the words through which a launch reaches parked workers
// without a message. The calling thread writes a launch (kernel, launch
// block, block count), marks the slots of as many parked workers as there
// are blocks GO and notifies each; each such worker wakes, claims blocks
// from the launch block's counter, marks its slot PARKED again, adds one to
// DONE and notifies it. Kernel modules a worker lacks travel in the same shared
// buffer (the module area), so no launch needs a message at all.
//
// All fields are Int32 words of one SharedArrayBuffer, separate from the
// heap (the heap's accounting never sees the pool). Fields written by
// different threads sit on different 64-byte lines.

const WORD = {
  /** CompiledModule.id of the kernel to run. */
  kernel: 1,
  /** Byte address of the launch block in the heap; its claim word hands out the blocks. */
  args: 2,
  blocks: 3,
  /** Bytes of the kernel's description (JSON: hash, id, hostKeys) and wasm in the module area; 0 when none is sent. */
  metaBytes: 4,
  wasmBytes: 5,
  /** Workers add 1 here when they finish their part of a launch (on the host's line apart). */
  done: 16,
  /** Set once by close(): workers stop parking. */
  closed: 32,
  /** Bumped (and notified) when a slot is vacated, so a waiting new worker retries. */
  vacancy: 33,
  /** Bumped (and notified) when a worker takes a slot, or takes up a new memory. */
  registered: 34,
  /** The memory's generation: bumped when the heap starts over on a new memory (the workers are sent it by message). */
  generation: 35,
} as const;

/** First slot's word; each slot takes SLOT_WORDS words (its own lines). */
const SLOTS_AT = 64;
const SLOT_WORDS = 256;

/** A slot's fields, relative to its first word. */
const SLOT = {
  state: 0,
  /** The worker's id (its threadId in Node). */
  worker: 1,
  /** What the worker made of the last launch it was given (a REPLY). */
  reply: 2,
  /** Blocks run by this slot's workers since the pool started (the worker adds its count per launch). */
  blocksRun: 3,
  /** UTF-8 bytes of the failure's JSON ({ name, message, code }) from word `error` on. */
  errorBytes: 4,
  /** The generation of the memory the slot's worker has (WORD.generation): a worker behind it is given no launch. */
  generation: 5,
  error: 6,
} as const;

const ERROR_CAPACITY = (SLOT_WORDS - SLOT.error) * 4;

const STATE = {
  /** No worker: a new worker may take it. */
  vacant: 0,
  /** A worker is waiting for launches. */
  parked: 1,
  /** The host has given this worker the current launch. */
  go: 2,
  /** A worker is taking the slot (writing its id). */
  registering: 3,
  /** The worker has taken up the launch it was given (a worker that dies now fails the launch). */
  running: 4,
} as const;

const REPLY = { none: 0, done: 1, missing: 2, failed: 3 } as const;

const slotWord = (slot: number, field: number): number => SLOTS_AT + slot * SLOT_WORDS + field;

/** Byte offset of the module area for a pool of `threads` slots. */
const moduleAt = (threads: number): number => (SLOTS_AT + threads * SLOT_WORDS) * 4;

/** Byte offset of a kernel's wasm in the module area, after its description of `metaBytes` (8-byte aligned). */
const wasmAt = (threads: number, metaBytes: number): number => moduleAt(threads) + Math.ceil(metaBytes / 8) * 8;

/** Bytes of the module area at first; the buffer grows (where the host allows) for bigger kernels. */
const MODULE_AREA = 1 << 20;
const MAX_BYTES = 1 << 28;

/** The shared buffer of a pool of `threads` workers, growable (for bigger kernels) up to MAX_BYTES. */
const controlBuffer = (threads: number): SharedArrayBuffer =>
  new SharedArrayBuffer(moduleAt(threads) + MODULE_AREA, { maxByteLength: MAX_BYTES });

/** Grows `sab` to at least `bytes`; false where it cannot (a host without growable buffers, or past the maximum). */
function ensureBytes(sab: SharedArrayBuffer, bytes: number): boolean {
  if (sab.byteLength >= bytes) return true;
  if (!sab.growable || bytes > sab.maxByteLength) return false;
  sab.grow(Math.min(sab.maxByteLength, Math.max(bytes, sab.byteLength * 2)));
  return true;
}

export { WORD, SLOT, STATE, REPLY, ERROR_CAPACITY, slotWord, moduleAt, wasmAt, controlBuffer, ensureBytes };
