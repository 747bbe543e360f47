// How much work a launch is, in units of "one element of one array streamed":
// what the caller weighs against the cost of dispatching to a pool. Streaming
// kernels cost about one unit per streamed array per element; a vector transcendental
// about 16 (sin on f64x2 runs near 10 ns per element against about 0.6 ns for
// a streamed array on the machine it was measured on); a host call about 32.
import type { CompiledModule } from './compile.js';
import { MATH_BINARY, MATH_UNARY } from './native-ops.js';

const MATH_WEIGHT = 16;
const HOST_WEIGHT = 32;
// A gather's read lands anywhere: from memory, a miss costs a few streamed elements' worth.
const GATHER_WEIGHT = 4;

/**
 * Work units per element of a kernel. A pinned temporary is computed per
 * block over about as many elements as the block reads of it: its own
 * kernel's work counts per element too.
 */
function workPerElement(compiled: Pick<CompiledModule, 'spec' | 'hostKeys'>): number {
  let w = perElement.get(compiled);
  if (w === undefined) perElement.set(compiled, (w = weigh(compiled)));
  return w;
}

/** Each kernel's work per element, worked out at its first launch: a small call launches its kernel thousands of times a second. */
const perElement = new WeakMap<object, number>();

function weigh(compiled: Pick<CompiledModule, 'spec' | 'hostKeys'>): number {
  const { spec, hostKeys } = compiled;
  const hosted = new Set(hostKeys.map((k) => k.split('.')[0]));
  // An array whose inner stride is 0 (a scalar constant, a column [n, 1] against [n, m]) is read
  // once per row of at least two elements (size-1 axes are collapsed away), not streamed: it adds
  // at most half a unit an element, and nothing for a constant.
  let w = spec.arrays.filter((a) => a.inner !== 'broadcast').length;
  for (const ins of spec.body) {
    if (ins.op === 'gather') w += GATHER_WEIGHT;
    if (ins.op !== 'unary' && ins.op !== 'binary') continue;
    if (hosted.has(ins.fn)) w += HOST_WEIGHT;
    else if (ins.op === 'unary' ? MATH_UNARY.has(ins.fn) : MATH_BINARY.has(ins.fn)) w += MATH_WEIGHT;
  }
  for (const t of spec.temps ?? []) w += weigh({ spec: t.kernel, hostKeys });
  return w;
}

/**
 * Work units of a launch over `elements` elements. A contraction adds its
 * multiply-adds, `k` per element (about one unit each: they run from cache).
 */
const launchWork = (compiled: Pick<CompiledModule, 'spec' | 'hostKeys'>, elements: number, k = 0): number =>
  elements * (workPerElement(compiled) + (compiled.spec.contraction ? k : 0));

export { workPerElement, launchWork };
