// The shape of a math generator, apart from the registry that lists them, so
// that generators which call others (native float32 routines falling back to
// float64 ones on the promoted halves) need not import the registry.
import type { Emitter, V } from './emitter.js';
import type { MathContext } from './context.js';

/** Emits fn over f64x2 operands and returns the result. */
type F64Generator = (e: Emitter, args: Operands, ctx: MathContext) => V;
/** Emits fn over f32x4 operands natively and returns the result. */
type F32Generator = F64Generator;

/** The operands of a generator: one or two vectors, as the function's arity says. */
type Operands = readonly [V] | readonly [V, V];

export type { F64Generator, F32Generator, Operands };
