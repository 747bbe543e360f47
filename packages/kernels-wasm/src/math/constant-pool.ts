// The vector-math constant table: every distinct v128 constant the math
// functions use gets a fixed 16-byte slot in [MATH_CONSTANTS_OFFSET,
// HEAP_BASE) of the memory a kernel runs on.
//
// Why memory and not v128.const: V8 materialises a v128.const with three or
// four instructions at every use and will not keep it in a register, and a
// math function uses 15-30 of them per vector. A load from a fixed address is
// one instruction, and its value can stay in a register or a spill slot. exp
// and log run 20-25% faster this way.
//
// Slots are process-wide and append-only: a slot, once given, holds the same
// bytes for the life of the process. Each module that uses math carries an
// active data segment writing slots [0, n) for the n its functions need, so
// any instantiation, on any thread, of any module writes only bytes that
// every other module agrees on; modules are generated on one thread (the
// host), so the numbering cannot diverge. A full table falls back to
// v128.const, which is slower but the same value.
import { MATH_CONSTANTS_BYTES, MATH_CONSTANTS_OFFSET } from '../heap/constants.js';

/** A map key for a run of bytes (the constant and table pools dedupe by content). */
const bytesKey = (bytes: Uint8Array): string => String.fromCharCode(...bytes);

class ConstantPool {
  readonly capacity: number;
  readonly #slots = new Map<string, number>();
  readonly #table: Uint8Array;

  constructor(capacity = MATH_CONSTANTS_BYTES / 16) {
    if (!Number.isInteger(capacity) || capacity < 0 || capacity * 16 > MATH_CONSTANTS_BYTES) {
      throw new RangeError(`ConstantPool: capacity must be an integer in 0..${MATH_CONSTANTS_BYTES / 16} (the table's slots); got ${capacity}`);
    }
    this.capacity = capacity;
    this.#table = new Uint8Array(capacity * 16);
  }

  /** The slot holding these 16 bytes, given on first use; undefined when the table is full. */
  slot(bytes: Uint8Array): number | undefined {
    if (bytes.length !== 16) throw new RangeError(`ConstantPool.slot: a v128 constant is 16 bytes; got ${bytes.length}`);
    const key = bytesKey(bytes);
    let slot = this.#slots.get(key);
    if (slot === undefined) {
      if (this.#slots.size >= this.capacity) return undefined;
      slot = this.#slots.size;
      this.#slots.set(key, slot);
      this.#table.set(bytes, slot * 16);
    }
    return slot;
  }

  /** The first n slots' bytes, as a data segment writes them at MATH_CONSTANTS_OFFSET. */
  bytes(n: number): Uint8Array {
    return this.#table.slice(0, n * 16);
  }

  /** Slots given so far. */
  get size(): number {
    return this.#slots.size;
  }
}

/** The byte address of a slot. */
const constantAddress = (slot: number): number => MATH_CONSTANTS_OFFSET + slot * 16;

/** The process-wide pool every generated module numbers its constants by. */
const MATH_CONSTANTS = new ConstantPool();

export { ConstantPool, MATH_CONSTANTS, bytesKey, constantAddress };
