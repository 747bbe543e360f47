// Host functions for kernels: ops the lowering does not write as WebAssembly
// (float floorDivide and mod, integer power, transcendentals the math library
// lacks) call the reference evaluator's own scalar functions, so both
// backends agree exactly on them. This module is a kernels-wasm HostModule:
// the calling thread and every pool worker load it.
import type { HostFunction } from 'kernels-wasm';
import type { DType } from '../ir/dtypes.js';
import { OPS } from '../ir/op-table.js';
import type { BinaryOp, UnaryOp } from '../ir/op-table.js';
import { newFlags } from '../core/flags.js';
import { binaryImpl, unaryImpl } from '../reference/scalar-math.js';

/** What this thread's host functions counted since the last takeFlags(). */
const flags = newFlags();

const cache = new Map<string, HostFunction>();

function hostFunction(key: string): HostFunction {
  const hit = cache.get(key);
  if (hit) return hit;
  const [op, type] = key.split('.') as [UnaryOp | BinaryOp, DType];
  const family = OPS[op]?.family;
  let fn: HostFunction;
  if (family === 'unary') {
    fn = unaryImpl(op as UnaryOp, type, flags);
  } else if (family === 'binary') {
    fn = binaryImpl(op as BinaryOp, type, flags);
  } else {
    throw new Error(`internal: no host function for ${key}`);
  }
  // WebAssembly hands an i32 over as a signed number; a uint32 operand is its bits read unsigned.
  if (type === 'uint32') {
    const signed = fn;
    fn = family === 'unary' ? (x: number) => signed(x >>> 0) : (a: number, b: number) => signed(a >>> 0, b >>> 0);
  }
  cache.set(key, fn);
  return fn;
}

/** Kernels run to completion without yielding, so counts taken around a run are that run's alone. */
function takeFlags(): { divide: number; invalid: number } {
  const taken = { divide: flags.divideByZero, invalid: flags.invalidCast };
  flags.divideByZero = 0;
  flags.invalidCast = 0;
  flags.where.clear();
  return taken;
}

export { hostFunction, takeFlags };
