// Host functions for kernels: ops the lowering does not write as WebAssembly
// (float floorDivide and mod, integer power, transcendentals the math library
// lacks) call the reference evaluator's own scalar functions, so both
// backends agree exactly on them.
import type { HostFunction } from 'kernels-wasm';
import type { DType } from '../ir/dtypes.js';
import { OPS } from '../ir/op-table.js';
import type { BinaryOp, UnaryOp } from '../ir/op-table.js';
import { newFlags } from '../reference/flags.js';
import type { RunFlags } from '../reference/flags.js';
import { binaryImpl, unaryImpl } from '../reference/scalar-math.js';

/** The flags of the run in progress; host functions are created once and read it. */
const current: { flags: RunFlags } = { flags: newFlags() };

/** Stands for whichever run is in progress, so each host function is built once. */
const forwarding: RunFlags = {
  get divideByZero() { return current.flags.divideByZero; },
  set divideByZero(v: number) { current.flags.divideByZero = v; },
  get invalidCast() { return current.flags.invalidCast; },
  set invalidCast(v: number) { current.flags.invalidCast = v; },
  get where() { return current.flags.where; },
};

const cache = new Map<string, HostFunction>();

function hostFunction(key: string): HostFunction {
  const hit = cache.get(key);
  if (hit) return hit;
  const [op, type] = key.split('.') as [UnaryOp | BinaryOp, DType];
  const family = OPS[op]?.family;
  let fn: HostFunction;
  if (family === 'unary') {
    fn = unaryImpl(op as UnaryOp, type, forwarding);
  } else if (family === 'binary') {
    fn = binaryImpl(op as BinaryOp, type, forwarding);
  } else {
    throw new Error(`internal: no host function for ${key}`);
  }
  cache.set(key, fn);
  return fn;
}

export { hostFunction, current as hostState };
