// Strength reduction, only where the result is bit for bit the same:
// - a float division by a constant power of two becomes a multiplication by its
//   reciprocal (both round the same exact value x * 2^-k once; a division
//   costs several times a multiplication, and blocks vectorised pipelining).
//   x / 180 keeps its division: 1/180 is not exact.
// - power by a constant: x ** 2 is square(x) and x ** -1 is reciprocal(x) in float
//   (the C pow that the math library and V8 follow returns exactly x * x and
//   1 / x there); an integer x ** k for k in 2..8 is a chain of
//   multiplications (wrapping integer products associate, so any order gives
//   the reference's). Float x ** 3 keeps pow: x * x * x rounds twice.
// - operations that give back their operand: x * 1, x - 0, x + (-0), x ** 1,
//   and for integers x + 0. Float x + 0 stays (it turns -0 into +0). A
//   result, output, store or pin keeps its node, so it never becomes an alias
//   of its operand.
import { isFloat } from '../ir/dtypes.js';
import type { DType, Scalar } from '../ir/dtypes.js';
import { sameShape } from '../ir/shape.js';
import { scalar } from '../ir/build-elementwise.js';
import { inheritMark, inheritPin, markOf, pinOf } from '../ir/marks.js';
import { makeNode } from '../ir/node.js';
import type { Node } from '../ir/node.js';
import { rootsOf } from './plan.js';
import type { Plan } from './plan.js';
import { rewriteGraph, withInputs } from './rewrite.js';

/** Integer exponents written as multiplications; beyond, the host's loop. */
const MAX_INT_POWER = 8;

/** A float64's bits as two uint32s (low word first: typed arrays are little-endian wherever WebAssembly runs). */
const bits = new Float64Array(1);
const words = new Uint32Array(bits.buffer);

/** Whether finite a > 0 is a power of two, subnormals included: one significand bit, or none with a normal exponent. Read from the bits: every constant of every request is asked, and log2 is a call into the runtime. */
function isPowerOfTwo(a: number): boolean {
  bits[0] = a;
  const lo = words[0]!;
  const high = words[1]! & 0xfffff;
  if ((words[1]! >>> 20) & 0x7ff) return lo === 0 && high === 0;
  return (lo === 0) !== (high === 0) && (lo & (lo - 1)) === 0 && (high & (high - 1)) === 0;
}

/** 1/c when c is a power of two (or its negative) whose reciprocal `dtype` holds exactly; else undefined. */
function exactReciprocal(c: number, dtype: DType): number | undefined {
  if (!isFloat(dtype) || c === 0 || !Number.isFinite(c)) return undefined;
  if (!isPowerOfTwo(Math.abs(c))) return undefined;
  // The reciprocal of a power of two is one too, exact unless it overflows (c = 2^-1074) or, in
  // float32, falls outside float32's range.
  const r = 1 / c;
  if (!Number.isFinite(r) || (dtype === 'float32' && Math.fround(r) !== r)) return undefined;
  return r;
}

/**
 * Whether a rewrite below may depend on a constant of this value (1, 0 and -0,
 * small integer exponents, powers of two), so that a plan made over it holds
 * for it alone: plan templates key such constants by value and take any other
 * as a leaf bound per run (plan/template.ts). Errs towards true.
 */
const valueMatters = (c: Scalar, dtype: DType): boolean => typeof c === 'number' && (
  Object.is(c, -0) || (Number.isInteger(c) && Math.abs(c) <= MAX_INT_POWER) || exactReciprocal(c, dtype) !== undefined);

/** The value of a scalar operand of the node's own dtype (so no cast is skipped); else undefined. */
const constantOf = (n: Node, dtype: DType): number | undefined =>
  (n.op === 'scalar' && n.dtype === dtype && typeof n.attrs.value === 'number' ? n.attrs.value : undefined);

/** x ** k by squaring, as multiplications of dtype's own. */
function powerChain(x: Node, k: number): Node {
  const { shape, dtype } = x;
  if (k === 1) return x;
  const half = powerChain(x, k >> 1);
  const square = makeNode('square', [half], shape, dtype, {});
  return k & 1 ? makeNode('multiply', [square, x], shape, dtype, {}) : square;
}

/** The cheaper node computing m bit for bit, or m. `mayVanish`: m may be replaced by one of its operands. */
function reduce(m: Node, mayVanish: boolean): Node {
  if (m.inputs.length !== 2 || m.dtype === 'bool') return m;
  const [a, b] = m.inputs as [Node, Node];
  const t = m.dtype;
  const float = isFloat(t);
  const ca = constantOf(a, t);
  const cb = constantOf(b, t);
  const keep = (x: Node): Node => (mayVanish && x.dtype === t && sameShape(x.shape, m.shape) ? x : m);
  switch (m.op) {
    case 'multiply':
      if (cb === 1) return keep(a);
      if (ca === 1) return keep(b);
      return m;
    case 'add':
      if (cb !== undefined && (float ? Object.is(cb, -0) : cb === 0)) return keep(a);
      if (ca !== undefined && (float ? Object.is(ca, -0) : ca === 0)) return keep(b);
      return m;
    case 'subtract':
      return cb === 0 ? keep(a) : m;
    case 'divide': {
      if (a.dtype !== t || cb === undefined) return m;
      const r = exactReciprocal(cb, t);
      if (r === undefined) return m;
      return r === 1 ? keep(a) : makeNode('multiply', [a, scalar(r, t)], m.shape, t, {});
    }
    case 'power': {
      if (a.dtype !== t || cb === undefined) return m;
      if (cb === 1) return keep(a);
      if (float && cb === 2) return makeNode('square', [a], m.shape, t, {});
      if (float && cb === -1) return makeNode('reciprocal', [a], m.shape, t, {});
      if (!float && cb >= 2 && cb <= MAX_INT_POWER) return powerChain(a, cb);
      return m;
    }
    default:
      return m;
  }
}

function reduceStrength(plan: Plan): Plan {
  const held = new Set([...rootsOf(plan), ...plan.pins.keys()]);
  return rewriteGraph(plan, (n, inputs) => {
    const m = withInputs(n, inputs);
    const r = reduce(m, !held.has(n) && !markOf(n) && !pinOf(n));
    // An output() or pin() on the original holds for its replacement (one that vanished into
    // its operand had neither).
    if (r !== m) {
      inheritMark(m, r);
      inheritPin(m, r);
    }
    return r;
  });
}

export { reduceStrength, valueMatters, isPowerOfTwo, exactReciprocal };
