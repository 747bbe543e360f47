// Host functions for kernels: ops the lowering does not write as WebAssembly
// (integer power, and any op whose row names the host) call the
// reference evaluator's own scalar functions, so both
// backends agree exactly on them. This module is a kernels-wasm HostModule:
// the calling thread and every pool worker load it.
import type { HostFunction } from 'kernels-wasm';
import { isDType } from '../ir/dtypes.js';
import { isBinaryOp, isOpName, isUnaryOp } from '../ir/op-table.js';
import { newFlags } from '../core/flags.js';
import { binaryImpl, unaryImpl } from '../reference/scalar-math.js';

/** What this thread's host functions counted since the last takeFlags(). */
const flags = newFlags();

const cache = new Map<string, HostFunction>();

function hostFunction(key: string): HostFunction {
  const hit = cache.get(key);
  if (hit) return hit;
  const fn = hostImpl(key);
  cache.set(key, fn);
  return fn;
}

/** The reference evaluator's scalar function for key `${op}.${dtype}`, any op of the table's elementwise rows. */
function hostImpl(key: string): HostFunction {
  const [op = '', type = ''] = key.split('.');
  if (!isDType(type) || !isOpName(op)) throw new Error(`internal: no host function for ${key}`);
  // WebAssembly hands an i32 over as a signed number; a uint32 operand is its bits read unsigned.
  if (isUnaryOp(op)) {
    const f = unaryImpl(op, type, flags);
    return type === 'uint32' ? (x: number) => f(x >>> 0) : f;
  }
  if (isBinaryOp(op)) {
    const f = binaryImpl(op, type, flags);
    return type === 'uint32' ? (a: number, b: number) => f(a >>> 0, b >>> 0) : f;
  }
  throw new Error(`internal: no host function for ${key}`);
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
