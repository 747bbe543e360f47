// The vector-math lookup tables: per-entry data a function reads at an index
// it computes per lane (wasm SIMD has no gather; math/emitter.ts `lookup` does
// one 16-byte load per lane and chunk, then transposes the lanes by shuffles).
//
// Like the constant table (constant-pool.ts) and for the same reasons: a
// table, once placed, keeps its address and bytes for the life of the process;
// each module that reads a table carries an active data segment writing
// [MATH_TABLES_OFFSET, end of its highest table), so every instantiation, on
// any thread, writes bytes every other module agrees on. Unlike a constant, a
// table has no inline fallback: tables are a fixed, small set chosen by the
// library, and placing one that does not fit is a bug in it.
import { MATH_TABLES_BYTES, MATH_TABLES_OFFSET } from '../heap/constants.js';
import { bytesKey } from './constant-pool.js';

/** Rows of f64 fields, as a function's table is written (tables.generated.ts). */
type Rows = readonly (readonly number[])[];

/** A table as `lookup` reads it: where it starts, its 16-byte chunks per row (a power of two), and where it ends. */
interface PlacedTable {
  readonly address: number;
  readonly chunks: number;
  /** Bytes from MATH_TABLES_OFFSET to the table's end: what a module reading it must write. */
  readonly end: number;
}

class TablePool {
  readonly #placed = new Map<string, number>();
  readonly #rows = new WeakMap<Rows, PlacedTable>();
  readonly #bytes = new Uint8Array(MATH_TABLES_BYTES);
  #end = 0;

  /** The byte address of a table with these contents (a whole number of 16-byte rows), placed on first use. */
  place(bytes: Uint8Array): number {
    if (bytes.length === 0 || bytes.length % 16 !== 0) {
      throw new RangeError(`TablePool.place: a table is a whole number of 16-byte rows; got ${bytes.length} bytes`);
    }
    const key = bytesKey(bytes);
    let offset = this.#placed.get(key);
    if (offset === undefined) {
      if (this.#end + bytes.length > MATH_TABLES_BYTES) {
        throw new RangeError(`TablePool.place: a ${bytes.length}-byte table does not fit in the ${MATH_TABLES_BYTES - this.#end} bytes left of MATH_TABLES_BYTES (${MATH_TABLES_BYTES}); raise it in heap/constants.ts`);
      }
      offset = this.#end;
      this.#bytes.set(bytes, offset);
      this.#end += bytes.length;
      this.#placed.set(key, offset);
    }
    return MATH_TABLES_OFFSET + offset;
  }

  /**
   * Rows packed as `lookup` reads them (each padded to a power-of-two number of
   * 16-byte chunks) and placed; packed once per rows array, which every use of
   * a function's table shares.
   */
  placeRows(rows: Rows): PlacedTable {
    const known = this.#rows.get(rows);
    if (known) return known;
    const fields = rows[0]?.length ?? 0;
    if (fields === 0 || rows.some((r) => r.length !== fields)) {
      throw new RangeError(`TablePool.placeRows: rows must be non-empty and all of one length; got lengths ${rows.map((r) => r.length).join(', ')}`);
    }
    const chunks = 2 ** Math.ceil(Math.log2(Math.ceil(fields / 2)));
    const data = new Float64Array(rows.length * chunks * 2);
    rows.forEach((r, i) => data.set(r, i * chunks * 2));
    const address = this.place(new Uint8Array(data.buffer));
    const placed = { address, chunks, end: address - MATH_TABLES_OFFSET + data.byteLength };
    this.#rows.set(rows, placed);
    return placed;
  }

  /** The first n bytes of the area, as a data segment writes them at MATH_TABLES_OFFSET. */
  bytes(n: number): Uint8Array {
    return this.#bytes.slice(0, n);
  }

  /** Bytes placed so far. */
  get size(): number {
    return this.#end;
  }
}

/** The process-wide table area every generated module addresses its tables by. */
const MATH_TABLES = new TablePool();

export { TablePool, MATH_TABLES };
export type { PlacedTable, Rows };
