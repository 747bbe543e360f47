// The fixed layout of the heap. Kernels compiled elsewhere (lower/, pool/)
// address the control area by these constants, so they are part of the
// contract and must not move without updating the code generators.
//
//   [0, NULL_GUARD_BYTES)            never used: a zero pointer is always a bug
//   [CONTROL_OFFSET, +CONTROL_BYTES) control words (atomic block counters, flags)
//   [MATH_CONSTANTS_OFFSET, +BYTES)  the vector-math constant table, written
//                                    by the data segment of each kernel module
//                                    that uses vector math
//   [MATH_TABLES_OFFSET, HEAP_BASE)  the vector-math lookup tables (read per
//                                    lane), written the same way
//   [HEAP_BASE, memory end)          array data, managed by the allocator

/** Bytes in one WebAssembly page. */
const PAGE_BYTES = 65536;

/** wasm32 addresses are 32-bit, so a memory holds at most 65536 pages (4 GiB). */
const WASM32_MAX_PAGES = 65536;

/** Every pointer handed out, and every block size, is a multiple of this (one v128). */
const ALIGNMENT = 16;

/** Bytes at address 0 that nothing uses, so that 0 is never a valid array address. */
const NULL_GUARD_BYTES = 64;

/** Start of the reserved control area; cache-line aligned so counters do not share a line with the guard. */
const CONTROL_OFFSET = NULL_GUARD_BYTES;

/** Size of the reserved control area; the allocator never hands out an address below HEAP_BASE. */
const CONTROL_BYTES = 4096 - NULL_GUARD_BYTES;

/**
 * Start of the vector-math constant table. Math functions load their splat
 * constants from here (one load, which V8 keeps in a register or spill slot)
 * instead of v128.const (three or four instructions at every use).
 */
const MATH_CONSTANTS_OFFSET = CONTROL_OFFSET + CONTROL_BYTES;

/** Size of the constant table: 1024 v128 constants. */
const MATH_CONSTANTS_BYTES = 16384;

/**
 * Start of the vector-math lookup tables: per-entry data (a log's 1/c and
 * log c, an interval's constants) that a function reads at an index computed
 * per lane, where a select chain over every entry would cost more.
 */
const MATH_TABLES_OFFSET = MATH_CONSTANTS_OFFSET + MATH_CONSTANTS_BYTES;

/** Size of the lookup-table area. */
const MATH_TABLES_BYTES = 32768;

/** The lowest address the allocator hands out. */
const HEAP_BASE = MATH_TABLES_OFFSET + MATH_TABLES_BYTES;

/** Pages a heap starts with unless told otherwise (4 MiB): small enough for tests and many heaps. */
const DEFAULT_INITIAL_PAGES = 64;

export {
  PAGE_BYTES,
  WASM32_MAX_PAGES,
  ALIGNMENT,
  NULL_GUARD_BYTES,
  CONTROL_OFFSET,
  CONTROL_BYTES,
  MATH_CONSTANTS_OFFSET,
  MATH_CONSTANTS_BYTES,
  MATH_TABLES_OFFSET,
  MATH_TABLES_BYTES,
  HEAP_BASE,
  DEFAULT_INITIAL_PAGES,
};
