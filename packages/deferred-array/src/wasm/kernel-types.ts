// The element types kernels see. No kernel computes in int64 or uint64 yet
// (the planner keeps nodes that touch them out of fused groups, and the host
// evaluates them), but their elements move through copy and gather kernels as
// float64 bits: a float64 load and store keep every bit of any 8 bytes.
import type { KInstr, KType } from 'kernels-wasm';
import { isBigInt } from '../ir/dtypes.js';
import type { DType } from '../ir/dtypes.js';
import { InternalError } from '../util/lookup.js';

/** A kernel instruction typed in the package's dtypes, as the builders make them. */
type DInstr = KInstr extends infer I ? (I extends { readonly type: KType } ? Omit<I, 'type'> & { readonly type: DType } : never) : never;

/** The type a kernel computes `d` in; int64 and uint64 never reach one. */
function computedAs(d: DType): KType {
  if (isBigInt(d)) throw new InternalError(`a kernel was asked to compute in ${d}; the planner keeps int64 and uint64 nodes out of kernels`);
  return d;
}

/** The type a kernel that only moves elements (copies, gathers) reads and writes `d` as. */
const movedAs = (d: DType): KType => (isBigInt(d) ? 'float64' : d);

/** `ins` as kernels-wasm's instruction, its type checked. */
function kernelInstr(ins: DInstr): KInstr {
  computedAs(ins.type);
  return ins as KInstr;
}

export { computedAs, movedAs, kernelInstr };
export type { DInstr };
