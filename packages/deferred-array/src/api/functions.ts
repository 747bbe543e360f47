// Function forms of the elementwise ops, made from the op table: every unary
// and binary op and alias is a function here (da.add(a, b), da.sin(x)), typed
// from the table. ufuncs.generated.ts lists them as named exports (ES modules
// need the names), written by the build from the table.
import type { DeferredArray } from './deferred-array.js';
import { binary, ternary, unary } from './ufunc.js';
import type { Operand, UfuncOptions } from './ufunc.js';
import { BINARY_OPS, OPS, UNARY_OPS } from '../ir/op-table.js';
import type { AliasOf, BinaryOp, UnaryOp } from '../ir/op-table.js';

type UnaryFunctions = { readonly [K in UnaryOp | AliasOf<UnaryOp>]: (x: Operand, options?: UfuncOptions) => DeferredArray };
type BinaryFunctions = { readonly [K in BinaryOp | AliasOf<BinaryOp>]: (x: Operand, y: Operand, options?: UfuncOptions) => DeferredArray };

const u = (op: UnaryOp) => (x: Operand, options?: UfuncOptions): DeferredArray => unary(op, x, options);
const b = (op: BinaryOp) => (x: Operand, y: Operand, options?: UfuncOptions): DeferredArray => binary(op, x, y, options);
/** An op's function under its name and each alias: one function, so da.abs === da.absolute. */
const named = (op: UnaryOp | BinaryOp, fn: unknown): Array<[string, unknown]> => [op, ...OPS[op].aliases].map((name) => [name, fn]);

/** Every elementwise op and alias of the table, by name. */
const UFUNCS = Object.freeze(Object.fromEntries([
  ...UNARY_OPS.flatMap((op) => named(op, u(op))),
  ...BINARY_OPS.flatMap((op) => named(op, b(op))),
])) as UnaryFunctions & BinaryFunctions;

/** NumPy's where: elementwise choice, fused like any other elementwise op (unlike a lazy cond). */
function where(condition: Operand, x: Operand, y: Operand, options?: UfuncOptions): DeferredArray {
  return ternary('where', condition, x, y, options);
}

/** clip(x, lo, hi) = minimum(maximum(x, lo), hi); NaN in any operand propagates. */
function clip(x: Operand, lo: Operand, hi: Operand, options?: UfuncOptions): DeferredArray {
  return ternary('clip', x, lo, hi, options);
}

export { UFUNCS, where, clip };
