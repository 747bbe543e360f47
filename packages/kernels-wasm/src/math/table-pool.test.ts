import { MATH_TABLES_BYTES, MATH_TABLES_OFFSET, HEAP_BASE } from '../heap/constants.js';
import { FunctionBuilder } from '../encode/function-builder.js';
import { ModuleBuilder } from '../encode/module-builder.js';
import { Emitter } from './emitter.js';
import { buildMathModule } from './harness.js';
import { MATH_FNS } from './registry.js';
import { MATH_TABLES, TablePool } from './table-pool.js';

const rows = (n: number, fields: number): number[][] => Array.from({ length: n }, (_, i) => Array.from({ length: fields }, (_, j) => i * 10 + j + 0.5));

/** How the module hands lookup its entries: as i64 lanes, as a bit field of them, or as scalars from lanes64. */
type IndexForm = 'lanes' | { readonly shift: number; readonly width: number } | 'scalars';

/**
 * A module whose f(index0, index1) looks `table` up per lane and stores every field at
 * HEAP_BASE. With a bit field, the lanes hold the entries at bits.shift, with every other bit
 * set (which the lookup must ignore).
 */
function lookupModule(table: number[][], pool: TablePool, form: IndexForm = 'lanes'): (i0: number, i1: number) => Float64Array {
  const m = new ModuleBuilder().importMemory({ module: 'env', name: 'memory', initial: 1, maximum: 1, shared: false });
  const [, f] = m.func('f', ['i32', 'i32'], [], true);
  let end = 0;
  const e = new Emitter(f, undefined, 0, (rows) => {
    const placed = pool.placeRows(rows);
    end = Math.max(end, placed.end);
    return placed;
  });
  m.data(MATH_TABLES_OFFSET, () => pool.bytes(end));
  const bits = typeof form === 'object' ? form : undefined;
  const lane = (p: number): void => {
    f.op('local.get', f.param(p)).op('i64.extend_i32_u');
    if (bits) f.op('i64.const', BigInt(bits.shift)).op('i64.shl').op('i64.const', ~(((1n << BigInt(bits.width)) - 1n) << BigInt(bits.shift))).op('i64.or');
  };
  lane(0);
  f.op('i64x2.splat');
  lane(1);
  f.op('i64x2.replace_lane', 1);
  const index = e.save();
  const fields = e.lookup(table, form === 'scalars' ? e.lanes64(index) : index, bits);
  fields.forEach((v, j) => {
    f.op('i32.const', HEAP_BASE + 16 * j);
    e.push(v);
    f.mem('v128.store');
  });
  const memory = new WebAssembly.Memory({ initial: 1, maximum: 1 });
  const inst = new WebAssembly.Instance(new WebAssembly.Module(m.toBytes()), { env: { memory } });
  const run = inst.exports['f'] as (a: number, b: number) => void;
  return (i0, i1) => {
    run(i0, i1);
    return new Float64Array(memory.buffer, HEAP_BASE, 2 * fields.length).slice();
  };
}

describe('math lookup tables', () => {
  test('lookup gives each lane its own row, for every field and row width', () => {
    for (const fields of [1, 2, 3, 4, 5]) {
      const table = rows(9, fields);
      const look = lookupModule(table, new TablePool());
      for (const [i0, i1] of [[0, 0], [0, 8], [8, 3], [5, 5], [7, 1]] as const) {
        const got = look(i0, i1);
        for (let j = 0; j < fields; j++) expect([got[2 * j], got[2 * j + 1]]).toEqual([table[i0]![j], table[i1]![j]]);
      }
    }
  });

  test('lookup reads an entry from a bit field of each lane, or from lanes already in scalars', () => {
    for (const fields of [1, 2, 3]) {
      const table = rows(16, fields);
      for (const form of [{ shift: 0, width: 4 }, { shift: 4, width: 4 }, { shift: 42, width: 4 }, 'scalars'] as const) {
        const look = lookupModule(table, new TablePool(), form);
        for (const [i0, i1] of [[0, 15], [15, 0], [9, 9], [3, 12]] as const) {
          const got = look(i0, i1);
          for (let j = 0; j < fields; j++) expect([got[2 * j], got[2 * j + 1]]).toEqual([table[i0]![j], table[i1]![j]]);
        }
      }
    }
  });

  test('a table is placed once, rows padded to 16-byte chunks, and the area ends before the heap', () => {
    const pool = new TablePool();
    const a = pool.place(new Uint8Array(32).fill(1));
    expect(a).toBe(MATH_TABLES_OFFSET);
    expect(pool.place(new Uint8Array(32).fill(1))).toBe(a);
    expect(pool.place(new Uint8Array(16).fill(2))).toBe(a + 32);
    expect(pool.size).toBe(48);
    expect(Array.from(pool.bytes(48).subarray(32))).toEqual(new Array(16).fill(2));
    expect(MATH_TABLES_OFFSET + MATH_TABLES_BYTES).toBe(HEAP_BASE);
    // Rows of three fields pad to two chunks (32 bytes); a rows array is packed and placed once.
    const rows3 = [[1, 2, 3], [4, 5, 6]];
    const placed = pool.placeRows(rows3);
    expect(pool.placeRows(rows3)).toBe(placed);
    expect(placed).toEqual({ address: a + 48, chunks: 2, end: 48 + 64 });
  });

  test('bad tables are refused with what was wrong', () => {
    expect(() => new TablePool().place(new Uint8Array(24))).toThrow('a table is a whole number of 16-byte rows; got 24 bytes');
    const pool = new TablePool();
    pool.place(new Uint8Array(MATH_TABLES_BYTES - 16));
    expect(() => pool.place(new Uint8Array(32).fill(3))).toThrow('does not fit in the 16 bytes left of MATH_TABLES_BYTES');
    const f = new FunctionBuilder([]);
    expect(() => new Emitter(f).lookup([[1]], new Emitter(f).i64(0n))).toThrow('the module has no memory');
    const withTables = (): Emitter => new Emitter(f, undefined, 0, (r) => new TablePool().placeRows(r));
    expect(() => withTables().lookup([[1, 2], [3]], new Emitter(f).i64(0n))).toThrow('rows must be non-empty and all of one length');
    expect(() => withTables().lookup(rows(8, 2), new Emitter(f).i64(0n), { shift: 10, width: 4 })).toThrow('a 4-bit entry needs 16 rows; the table has 8');
  });

  test('every math function, both lane types, fits the process-wide table area', () => {
    for (const fn of MATH_FNS) {
      buildMathModule(fn, 'f64x2');
      buildMathModule(fn, 'f32x4');
    }
    expect(MATH_TABLES.size).toBeGreaterThan(0);
    expect(MATH_TABLES.size).toBeLessThanOrEqual(MATH_TABLES_BYTES * 0.75);
  });
});
