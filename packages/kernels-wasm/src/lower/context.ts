// What the emitters share while one kernel function is being written.
import type { FunctionBuilder, Local, ValType } from '../encode/index.js';
import type { KType } from './kernel-spec.js';

interface EmitContext {
  readonly f: FunctionBuilder;
  /** The launch block pointer (a parameter). */
  readonly args: Local;
  /** Function index of a host function (imported before emission), by key `${fn}.${type}`. */
  host(key: string): number;
  /** A vector math routine, or undefined when the math library lacks it. */
  math(fn: string, lanes: 'f64x2' | 'f32x4'): MathRoutine | undefined;
  /**
   * Code that computes values again which other code of the kernel also
   * computes, and counts (a scan's totals, emit-scan-chains.ts): it bumps no
   * flag, so that each element's conditions count once.
   */
  readonly quiet?: boolean;
}

/** Ways to apply a vector math routine where `f` stands: each pops the v128 operand(s) and pushes the result. */
interface MathRoutine {
  /** A call to the module's one copy of the routine (small code, for paths that run rarely). */
  call(): void;
  /** The routine's code written out in place (no call, no spills around one: for the vector loop). */
  inline(): void;
}

/** The scalar WebAssembly type that holds a value of `t`. */
function scalarType(t: KType): ValType {
  return t === 'float64' ? 'f64' : t === 'float32' ? 'f32' : is64K(t) ? 'i64' : 'i32';
}

/**
 * int64 and uint64, held in an i64 as their bits (in i64x2 lanes by the
 * vector loop, which holds nothing else then). Kernels compute only the ops
 * validate-spec lets through for them (INT64_UNARY, INT64_BINARY).
 */
const is64K = (t: KType): boolean => t === 'int64' || t === 'uint64';

const isFloatK = (t: KType): boolean => t === 'float64' || t === 'float32';

/** Integer types (bool is not one: its values are masks in lanes). */
const isIntegerK = (t: KType): boolean => t !== 'bool' && !isFloatK(t);

/**
 * Integer types (bool included) are held in an i32: the narrow ones sign- or
 * zero-extended, so that i32 arithmetic followed by `wrap` gives the type's
 * two's-complement result, and uint32 as its bits, read unsigned where the
 * sign matters (compare, divide, shift right, convert).
 */
const isUnsignedK = (t: KType): boolean => t === 'uint8' || t === 'uint16' || t === 'uint32' || t === 'uint64' || t === 'bool';

/** The type's range, for saturating conversions and min/max identities. */
const INT_RANGE: Partial<Record<KType, readonly [number, number]>> = {
  int32: [-2147483648, 2147483647], uint32: [0, 4294967295], int16: [-32768, 32767], uint16: [0, 65535],
  int8: [-128, 127], uint8: [0, 255], bool: [0, 1],
};

function intRange(t: KType): readonly [number, number] {
  const r = INT_RANGE[t];
  if (!r) throw new Error(`internal: ${t} is not an integer type`);
  return r;
}

/** After an i32 operation that can leave a narrow type's range, brings the result back into it (the wrap a store does). */
function wrapInt(f: FunctionBuilder, t: KType): void {
  if (t === 'int8') f.op('i32.extend8_s');
  else if (t === 'int16') f.op('i32.extend16_s');
  else if (t === 'uint8') f.op('i32.const', 0xff).op('i32.and');
  else if (t === 'uint16') f.op('i32.const', 0xffff).op('i32.and');
}

/** The i32 comparison of `t`'s values: `lt` becomes i32.lt_s, or i32.lt_u for unsigned types. */
const intCompare = (t: KType, c: 'lt' | 'le' | 'gt' | 'ge'): string => `${is64K(t) ? 'i64' : 'i32'}.${c}_${isUnsignedK(t) ? 'u' : 's'}`;

export { scalarType, is64K, isFloatK, isIntegerK, isUnsignedK, intRange, wrapInt, intCompare };
export type { EmitContext, MathRoutine };
