// A thin layer over FunctionBuilder for writing straight-line SIMD math: every
// operation pops its operands, pushes its result into a fresh local and hands
// back a reference. Temporaries cost nothing once V8's optimising tier has put
// the function in SSA form, and named values read much closer to the C they
// are transcribed from than raw stack code does.
//
// Constants come from the module's constant table when it has one (see
// constant-pool.ts): the first load at the body's top level is kept in a local
// and reused; a load inside an `if` is not kept, since a local first set there
// would read as zero on the path that skipped it. Without a table (a module
// with no memory) they are emitted inline at each use (v128.const).
import type { FunctionBuilder, Local } from '../encode/function-builder.js';
import { JOIN_HIGH_HALVES, JOIN_LOW_HALVES } from '../encode/shuffles.js';
import type { PlacedTable, Rows } from './table-pool.js';
import { at } from '../internal-error.js';

/** A v128 value: a local that holds it, or a constant emitted where it is used. */
type V = { readonly local: Local } | { readonly bytes: Uint8Array };

const f64Bytes = (a: number, b: number): Uint8Array => new Uint8Array(new Float64Array([a, b]).buffer);
const i64Bytes = (a: bigint, b: bigint): Uint8Array => new Uint8Array(new BigInt64Array([a, b]).buffer);
const f32Bytes = (a: number): Uint8Array => new Uint8Array(new Float32Array([a, a, a, a]).buffer);
const i32Bytes = (a: number): Uint8Array => new Uint8Array(new Int32Array([a, a, a, a]).buffer);

/** Where constants live: the address of a constant's slot, or undefined to emit it inline. */
type ConstantTable = (bytes: Uint8Array) => number | undefined;

/** Where lookup tables live: a table's rows placed in memory (see table-pool.ts). */
type LookupTables = (rows: Rows) => PlacedTable;

/** The two i64 lanes of a vector, in scalar locals (`Emitter.lanes64`). */
type Lanes64 = readonly [Local, Local];

class Emitter {
  readonly f: FunctionBuilder;
  readonly #table: ConstantTable | undefined;
  #loaded = new Map<number, Local>();
  readonly #depth: number;
  readonly #tables: LookupTables | undefined;

  /**
   * `depth`: the block depth of the code's top level (where a kept constant is
   * set on every path). `tables`: where `lookup` places its tables (a module
   * without memory has none, and `lookup` then throws).
   */
  constructor(f: FunctionBuilder, table?: ConstantTable, depth = 0, tables?: LookupTables) {
    this.f = f;
    this.#table = table;
    this.#depth = depth;
    this.#tables = tables;
  }

  /** Parameter i of the function (which must be a v128). */
  arg(i: number): V {
    return { local: this.f.param(i) };
  }

  f64(a: number, b = a): V {
    return { bytes: f64Bytes(a, b) };
  }

  i64(a: bigint, b = a): V {
    return { bytes: i64Bytes(a, b) };
  }

  f32(a: number): V {
    return { bytes: f32Bytes(a) };
  }

  i32(a: number): V {
    return { bytes: i32Bytes(a) };
  }

  /** Pushes v onto the operand stack. */
  push(v: V): this {
    if ('local' in v) this.f.op('local.get', v.local);
    else this.#constant(v.bytes);
    return this;
  }

  #constant(bytes: Uint8Array): void {
    const address = this.#table?.(bytes);
    if (address === undefined) {
      this.f.v128const(bytes);
      return;
    }
    const kept = this.#loaded.get(address);
    if (kept !== undefined) {
      this.f.op('local.get', kept);
      return;
    }
    this.f.op('i32.const', 0).mem('v128.load', { offset: address });
    if (this.f.depth === this.#depth) {
      const l = this.f.local('v128');
      this.f.op('local.tee', l);
      this.#loaded.set(address, l);
    }
  }

  /** Pops the v128 on top of the stack into a fresh local. */
  save(): V {
    const l = this.f.local('v128');
    this.f.op('local.set', l);
    return { local: l };
  }

  /** A fresh local holding v, for values that are reassigned (inside `when`). */
  mutable(v: V): V & { readonly local: Local } {
    this.push(v);
    const l = this.f.local('v128');
    this.f.op('local.set', l);
    return { local: l };
  }

  /** Overwrites a local made by `mutable`. */
  assign(target: { readonly local: Local }, v: V): void {
    this.push(v);
    this.f.op('local.set', target.local);
  }

  /** Any v128 instruction with no immediate: pushes the operands, applies it, saves the result. */
  op(name: string, ...args: V[]): V {
    for (const a of args) this.push(a);
    this.f.op(name);
    return this.save();
  }

  /** A SIMD shift by a constant scalar count. */
  shift(name: string, v: V, count: number): V {
    this.push(v);
    this.f.op('i32.const', count).op(name);
    return this.save();
  }

  /** Runs `body` only when some lane of `mask` is set (the common, all-clear case skips it). */
  when(mask: V, body: () => void): void {
    this.push(mask);
    this.f.op('v128.any_true').if();
    // The body loads its own constants rather than reading the locals kept outside: a kept
    // local read in a rarely taken branch would stay live (in a register or spilled) across
    // everything before it.
    const kept = this.#loaded;
    this.#loaded = new Map();
    body();
    this.#loaded = kept;
    this.f.end();
  }

  /**
   * `rare()` when `test` holds, else `common()`: a branch taken before either
   * is computed, so that nothing computed before it but what both sides use
   * is live across it (V8 spills what a branch's far side needs on the near
   * side too). `test` is a mask (it holds when some lane is set) or code that
   * pushes an i32 (it holds when that is not 0). Each side loads its own
   * constants, as in `when`.
   */
  choose(test: V | (() => void), rare: () => V, common: () => V): V {
    const out = this.f.local('v128');
    const kept = this.#loaded;
    if (typeof test === 'function') test();
    else this.push(test).f.op('v128.any_true');
    this.f.if();
    this.#loaded = new Map();
    this.push(rare()).f.op('local.set', out);
    this.f.else();
    this.#loaded = new Map();
    this.push(common()).f.op('local.set', out);
    this.#loaded = kept;
    this.f.end();
    return { local: out };
  }

  /**
   * A short form where it serves: `short()` alone on vectors whose lanes all
   * are `served` (a lane mask), else both, each lane taking its own (`other()`
   * on the lanes not served), so that a lane's bits never depend on the lanes
   * beside it.
   */
  byLane(served: V, short: () => V, other: () => V): V {
    return this.choose(this.not(served), () => this.select(served, short(), other()), short);
  }

  /** v's two i64 lanes, in scalar locals (for work the scalar ALUs can take off the vector ones). */
  lanes64(v: V): Lanes64 {
    const lane = (k: number): Local => {
      const l = this.f.local('i64');
      this.push(v).f.op('i64x2.extract_lane', k).op('local.set', l);
      return l;
    };
    return [lane(0), lane(1)];
  }

  /**
   * A per-lane table lookup (wasm SIMD has no gather): field j of the result
   * holds rows[entry0][j] in lane 0 and rows[entry1][j] in lane 1. Each i64x2
   * lane of `index` (or each of its lanes already in scalars, from `lanes64`)
   * holds its entry number, or with `bits` the entry is the bit field
   * [bits.shift, bits.shift + bits.width) of the lane. The caller's
   * arithmetic keeps entries in range (a bit field is, if the table has
   * 2^width rows); nothing checks. Each lane's byte offset is worked out in
   * scalar code (the scalar ALUs are idle here, the vector ones are not);
   * each row is padded to a power-of-two number of 16-byte chunks, a lane
   * costs one load per chunk, and each pair of fields one shuffle per field.
   */
  lookup(rows: Rows, index: V | Lanes64, bits?: { readonly shift: number; readonly width: number }): V[] {
    const { address, chunks } = this.#placed(rows);
    const [first] = rows;
    if (!first) throw new RangeError('Emitter.lookup: the table has no rows');
    const fields = first.length;
    const scale = Math.log2(chunks * 16);
    if (bits && rows.length !== 2 ** bits.width) throw new RangeError(`Emitter.lookup: a ${bits.width}-bit entry needs ${2 ** bits.width} rows; the table has ${rows.length}`);
    const base = this.f.local('i32');
    const loadLane = (lane: number): V[] => {
      if (Array.isArray(index)) this.f.op('local.get', at(index, lane, 'lane'));
      else this.push(index as V).f.op('i64x2.extract_lane', lane);
      if (bits) {
        // The field, moved to bit `scale` (the row size's power of two) by one shift, then masked.
        if (bits.shift >= scale) this.f.op('i64.const', BigInt(bits.shift - scale)).op('i64.shr_u').op('i32.wrap_i64');
        else this.f.op('i32.wrap_i64').op('i32.const', scale - bits.shift).op('i32.shl');
        this.f.op('i32.const', ((2 ** bits.width - 1) << scale) | 0).op('i32.and');
      } else {
        this.f.op('i32.wrap_i64').op('i32.const', scale).op('i32.shl');
      }
      this.f.op('local.set', base);
      // Only the chunks holding fields (a row's padding to a power of two is never read).
      return Array.from({ length: Math.ceil(fields / 2) }, (_, c) => {
        this.f.op('local.get', base).mem('v128.load', { offset: address + 16 * c });
        return this.save();
      });
    };
    const [lane0, lane1] = [loadLane(0), loadLane(1)];
    const out: V[] = [];
    for (let j = 0; j < fields; j++) {
      const c = j >> 1;
      this.push(at(lane0, c, 'chunk')).push(at(lane1, c, 'chunk'));
      this.f.shuffle(j % 2 === 0 ? JOIN_LOW_HALVES : JOIN_HIGH_HALVES);
      out.push(this.save());
    }
    return out;
  }

  #placed(rows: Rows): PlacedTable {
    if (!this.#tables) throw new Error('Emitter.lookup: the module has no memory, so it has no lookup tables; import a memory first');
    return this.#tables(rows);
  }

  // f64x2 shorthands: most of the library is written in double precision.
  add(a: V, b: V): V { return this.op('f64x2.add', a, b); }
  sub(a: V, b: V): V { return this.op('f64x2.sub', a, b); }
  mul(a: V, b: V): V { return this.op('f64x2.mul', a, b); }
  div(a: V, b: V): V { return this.op('f64x2.div', a, b); }
  neg(a: V): V { return this.op('f64x2.neg', a); }
  abs(a: V): V { return this.op('f64x2.abs', a); }
  sqrt(a: V): V { return this.op('f64x2.sqrt', a); }
  min(a: V, b: V): V { return this.op('f64x2.min', a, b); }
  max(a: V, b: V): V { return this.op('f64x2.max', a, b); }
  /**
   * x clamped to [lo, hi] by pseudo-min and pseudo-max (one instruction each,
   * where the NaN-aware min and max take several): pmin(x, c) is c < x ? c : x,
   * so a NaN x stays NaN. Not for signed-zero bounds (pmin(-0, 0) is -0).
   */
  clamp(x: V, lo: number, hi: number, lanes: 'f64x2' | 'f32x4' = 'f64x2'): V {
    return this.op(`${lanes}.pmax`, this.below(x, hi, lanes), this.#splat(lanes, lo));
  }
  /** min(x, hi) by pseudo-min, as in clamp. */
  below(x: V, hi: number, lanes: 'f64x2' | 'f32x4' = 'f64x2'): V {
    return this.op(`${lanes}.pmin`, x, this.#splat(lanes, hi));
  }
  nearest(a: V): V { return this.op('f64x2.nearest', a); }
  floor(a: V): V { return this.op('f64x2.floor', a); }
  trunc(a: V): V { return this.op('f64x2.trunc', a); }
  lt(a: V, b: V): V { return this.op('f64x2.lt', a, b); }
  le(a: V, b: V): V { return this.op('f64x2.le', a, b); }
  gt(a: V, b: V): V { return this.op('f64x2.gt', a, b); }
  ge(a: V, b: V): V { return this.op('f64x2.ge', a, b); }
  eq(a: V, b: V): V { return this.op('f64x2.eq', a, b); }
  ne(a: V, b: V): V { return this.op('f64x2.ne', a, b); }

  // Bitwise, lane-agnostic.
  and(a: V, b: V): V { return this.op('v128.and', a, b); }
  or(a: V, b: V): V { return this.op('v128.or', a, b); }
  xor(a: V, b: V): V { return this.op('v128.xor', a, b); }
  /** a & ~b */
  andnot(a: V, b: V): V { return this.op('v128.andnot', a, b); }
  not(a: V): V { return this.op('v128.not', a); }

  /** Lane-wise mask ? a : b (mask lanes all ones or all zeros). */
  select(mask: V, a: V, b: V): V {
    return this.op('v128.bitselect', a, b, mask);
  }

  /**
   * c[0] + c[1]*x + c[2]*x^2 + ... by Estrin's scheme: pairs c[2i] + c[2i+1]*x,
   * then pairs of those joined by x^2, then by x^4, and so on. About as many
   * operations as Horner's rule, but a dependency chain of log2(n) steps
   * instead of n, so the vectors of consecutive calls overlap. The rounding
   * differs from Horner's; use it where the polynomial is a correction term
   * far below the result's leading part.
   */
  estrin(x: V, coeffs: readonly number[], lanes: 'f64x2' | 'f32x4' = 'f64x2'): V {
    if (coeffs.length === 0) throw new RangeError('estrin needs at least one coefficient');
    let level: V[] = coeffs.map((c) => this.#splat(lanes, c));
    let power = x;
    while (level.length > 1) {
      level = this.#pairUp(level, power, lanes);
      if (level.length > 1) power = this.op(`${lanes}.mul`, power, power);
    }
    return at(level, 0, 'term');
  }

  /** v[2i] + power * v[2i+1] for each pair (a last odd one kept): one level of Estrin's scheme. */
  #pairUp(v: readonly V[], power: V, lanes: 'f64x2' | 'f32x4'): V[] {
    const out: V[] = [];
    for (let i = 0; i < v.length; i += 2) {
      const even = at(v, i, 'term');
      const odd = v[i + 1];
      out.push(odd === undefined ? even : this.op(`${lanes}.add`, even, this.op(`${lanes}.mul`, power, odd)));
    }
    return out;
  }

  /**
   * The same polynomial as `horner`, by Horner's rule in x2 = x^2 (which the
   * caller has at hand) over the pairs c[2i] + c[2i+1]*x, which are
   * independent: as many operations as Horner's rule, about half as long a
   * dependency chain, where a routine's chain and not its operation count
   * sets the loop's speed (float32 exp: 1.07 -> 0.97 ns/element). Rounds
   * differently from Horner's; for correction terms.
   */
  pairedHorner(x: V, x2: V, coeffs: readonly number[], lanes: 'f64x2' | 'f32x4' = 'f64x2'): V {
    if (coeffs.length === 0) throw new RangeError('pairedHorner needs at least one coefficient');
    const pairs = this.#pairUp(coeffs.map((c) => this.#splat(lanes, c)), x, lanes);
    let acc = at(pairs, pairs.length - 1, 'pair');
    for (let i = pairs.length - 2; i >= 0; i--) acc = this.op(`${lanes}.add`, at(pairs, i, 'pair'), this.op(`${lanes}.mul`, x2, acc));
    return acc;
  }

  /** c[0] + x*(c[1] + x*(c[2] + ...)) by Horner's rule. */
  horner(x: V, coeffs: readonly number[], lanes: 'f64x2' | 'f32x4' = 'f64x2'): V {
    const n = coeffs.length;
    if (n === 0) throw new RangeError('horner needs at least one coefficient');
    let acc = this.#splat(lanes, at(coeffs, n - 1, 'coefficient'));
    for (let i = n - 2; i >= 0; i--) acc = this.op(`${lanes}.add`, this.#splat(lanes, at(coeffs, i, 'coefficient')), this.op(`${lanes}.mul`, x, acc));
    return acc;
  }

  #splat(lanes: 'f64x2' | 'f32x4', v: number): V {
    return lanes === 'f64x2' ? this.f64(v) : this.f32(v);
  }
}

export { Emitter };
export type { V, ConstantTable, LookupTables, Lanes64 };
