// Run-time conditions found in the data (NumPy's floating-point status flags,
// narrowed to the ones this package reports). Kernels count; the linker decides.

interface RunFlags {
  /** Integer division, modulo or reciprocal with a zero divisor (result 0). */
  divideByZero: number;
  /** Float-to-integer casts of NaN, ±Inf or out-of-range values (result saturated). */
  invalidCast: number;
  /** Ops in which each condition was first seen, for the error message. */
  readonly where: Set<string>;
}

function newFlags(): RunFlags {
  return { divideByZero: 0, invalidCast: 0, where: new Set() };
}

export { newFlags };
export type { RunFlags };
