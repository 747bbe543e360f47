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
  return t === 'float64' ? 'f64' : t === 'float32' ? 'f32' : 'i32';
}

const isFloatK = (t: KType): boolean => t === 'float64' || t === 'float32';

export { scalarType, isFloatK };
export type { EmitContext, MathRoutine };
