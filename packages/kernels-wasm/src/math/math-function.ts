// mathFunction: adds to a module (once) an internal function computing a
// math function lane-wise, (param v128 [v128]) (result v128).
//
// f32x4 uses a native f32x4 generator where there is one (registry.ts's
// F32_NATIVE: twice the lanes per instruction, within the float32 bar of 2
// ulp). Otherwise it runs an f64x2 algorithm on each half, promoted, and
// demotes the results (via-f64.ts): a float-accuracy one where there is one
// (expm1, tanh: cheaper polynomials), else the float64 algorithm itself.
// Either way the f64 result is within ~2^-29 ulp of f32 of the truth before
// the one rounding to f32, so the result is within 0.5 + 2^-29 ulp of f32.
import type { ModuleBuilder } from '../encode/module-builder.js';
import type { FunctionBuilder } from '../encode/function-builder.js';
import { Emitter } from './emitter.js';
import type { ConstantTable, LookupTables, V } from './emitter.js';
import { MATH_CONSTANTS_OFFSET, MATH_TABLES_OFFSET } from '../heap/constants.js';
import { MATH_TABLES } from './table-pool.js';
import { MATH_CONSTANTS, constantAddress } from './constant-pool.js';
import type { ConstantPool } from './constant-pool.js';
import type { MathContext } from './context.js';
import { F32_NATIVE, F32_VIA_F64, GENERATORS, MATH_ARITY, isMathFn } from './registry.js';
import type { MathFn, MathLanes, Operands } from './registry.js';
import { viaF64 } from './via-f64.js';
import { InternalError } from '../internal-error.js';

const defined = new WeakMap<ModuleBuilder, Map<string, number>>();

function memo(m: ModuleBuilder): Map<string, number> {
  let table = defined.get(m);
  if (!table) {
    table = new Map();
    defined.set(m, table);
  }
  return table;
}

function contextFor(m: ModuleBuilder): MathContext {
  return {
    helper(key, define) {
      const table = memo(m);
      const name = `helper:${key}`;
      let index = table.get(name);
      if (index === undefined) {
        index = define(m);
        table.set(name, index);
      }
      return index;
    },
  };
}

/**
 * A data segment at `offset` that the module gains on first use, writing
 * bytes(end) for the highest end any use marked: the module writes only the
 * part of a process-wide area (constants, tables) its own functions read.
 */
function segmentOnFirstUse(m: ModuleBuilder, offset: number, bytes: (end: number) => Uint8Array): (end: number) => void {
  let high = 0;
  return (end) => {
    if (high === 0 && end > 0) m.data(offset, () => bytes(high));
    high = Math.max(high, end);
  };
}

const constantTables = new WeakMap<ModuleBuilder, ConstantTable>();

/**
 * The module's view of the constant table (constant-pool.ts). Undefined for a
 * module without memory: constants are then inline.
 */
function constantsFor(m: ModuleBuilder, pool: ConstantPool = MATH_CONSTANTS): ConstantTable | undefined {
  if (!m.hasMemory) return undefined;
  let table = constantTables.get(m);
  if (!table) {
    const mark = segmentOnFirstUse(m, MATH_CONSTANTS_OFFSET, (end) => pool.bytes(end / 16));
    table = (bytes) => {
      const slot = pool.slot(bytes);
      if (slot === undefined) return undefined;
      mark((slot + 1) * 16);
      return constantAddress(slot);
    };
    constantTables.set(m, table);
  }
  return table;
}

const lookupTables = new WeakMap<ModuleBuilder, LookupTables>();

/**
 * The module's view of the lookup tables (table-pool.ts). Undefined for a
 * module without memory.
 */
function tablesFor(m: ModuleBuilder): LookupTables | undefined {
  if (!m.hasMemory) return undefined;
  let tables = lookupTables.get(m);
  if (!tables) {
    const mark = segmentOnFirstUse(m, MATH_TABLES_OFFSET, (end) => MATH_TABLES.bytes(end));
    tables = (rows) => {
      const placed = MATH_TABLES.placeRows(rows);
      mark(placed.end);
      return placed;
    };
    lookupTables.set(m, tables);
  }
  return tables;
}

function isMathAvailable(fn: MathFn, lanes: MathLanes): boolean {
  return isMathFn(fn) && (lanes === 'f64x2' || lanes === 'f32x4') && GENERATORS[fn] !== undefined;
}

/** fn lane-wise on `args`: the float64 generator, or for f32x4 the native one or the f64x2 one on each half. */
function emitMath(e: Emitter, fn: MathFn, lanes: MathLanes, args: Operands, ctx: MathContext): V {
  const gen = GENERATORS[fn];
  if (!gen) throw new InternalError(`no generator for ${fn}; checkMath lets none through`);
  const native = F32_NATIVE[fn];
  return lanes === 'f64x2' ? gen(e, args, ctx)
    : native ? native(e, args, ctx)
    : viaF64(e, args, F32_VIA_F64[fn] ?? gen, ctx);
}

/** `arity` operands taken by `take`, last operand first. */
function operands(arity: 1 | 2, take: () => V): Operands {
  if (arity === 1) return [take()];
  const y = take();
  return [take(), y];
}

function checkMath(fn: MathFn, lanes: MathLanes): void {
  if (!isMathFn(fn)) throw new TypeError(`mathFunction: unknown function '${String(fn)}'; expected one of ${Object.keys(MATH_ARITY).join(', ')}`);
  if (lanes !== 'f64x2' && lanes !== 'f32x4') throw new TypeError(`mathFunction: lanes must be 'f64x2' or 'f32x4'; got '${String(lanes)}'`);
  if (!GENERATORS[fn]) throw new Error(`mathFunction: '${fn}' (${lanes}) is not implemented yet; check isMathAvailable('${fn}', '${lanes}') first`);
}

/**
 * Writes fn lane-wise into `f` where it stands: pops the operand(s) (v128) and
 * pushes the result. Inline in a kernel's vector loop, a routine costs no call,
 * and the loop's vector values need not be spilled around one (V8 saves no
 * SIMD register across a wasm call).
 */
function emitMathInline(m: ModuleBuilder, f: FunctionBuilder, fn: MathFn, lanes: MathLanes): void {
  checkMath(fn, lanes);
  const e = new Emitter(f, constantsFor(m), f.depth, tablesFor(m));
  // The operands are on the stack, the last on top.
  const args = operands(MATH_ARITY[fn], () => e.save());
  e.push(emitMath(e, fn, lanes, args, contextFor(m)));
}

/**
 * The index of an internal (not exported) function computing fn lane-wise:
 * (param v128) (result v128), or (param v128 v128) (result v128) for the
 * binary ones (MATH_ARITY). Defined once per (module, fn, lanes).
 */
function mathFunction(m: ModuleBuilder, fn: MathFn, lanes: MathLanes): number {
  checkMath(fn, lanes);
  const table = memo(m);
  const key = `${fn}:${lanes}`;
  const known = table.get(key);
  if (known !== undefined) return known;
  const params = MATH_ARITY[fn] === 2 ? (['v128', 'v128'] as const) : (['v128'] as const);
  const [index, body] = m.func(`math.${fn}.${lanes}`, params, ['v128'], false);
  table.set(key, index);
  const e = new Emitter(body, constantsFor(m), 0, tablesFor(m));
  e.push(emitMath(e, fn, lanes, MATH_ARITY[fn] === 2 ? [e.arg(0), e.arg(1)] : [e.arg(0)], contextFor(m)));
  return index;
}

export { mathFunction, emitMathInline, isMathAvailable, constantsFor };
