// Collapses an iteration space: drops size-1 axes and merges neighbouring axes
// that every array walks as one (stride[d] == stride[d+1] * shape[d+1]), so a
// contiguous 3-D array runs as one long row.
import { at } from '../internal-error.js';

interface Collapsed {
  readonly shape: number[];
  /** strides[k][d]: array k's element stride on axis d. */
  readonly strides: number[][];
}

/** An axis kept: its size and each array's stride on it. */
interface Axis {
  readonly size: number;
  readonly strides: readonly number[];
}

function collapseDims(shape: readonly number[], strides: readonly (readonly number[])[]): Collapsed {
  const axes = shape.flatMap((size, d): Axis[] => (size === 1 ? [] : [{ size, strides: strides.map((s) => at(s, d, 'stride')) }]));
  // An empty or one-element space: each array keeps its innermost stride, so
  // the kernel is the one a longer space of the same layout compiles to.
  const innermost = (): number[][] => strides.map((s) => [s[s.length - 1] ?? 0]);
  if (axes.some((a) => a.size === 0)) return { shape: [0], strides: innermost() };
  if (axes.length === 0) return { shape: [1], strides: innermost() };
  // From the innermost axis out, each axis joins the (merged) axis inside it when every array steps over that one exactly.
  const merged: Axis[] = [];
  for (const axis of axes.reverse()) {
    const inner = merged[merged.length - 1];
    if (inner && axis.strides.every((s, k) => s === at(inner.strides, k, 'array') * inner.size)) {
      merged[merged.length - 1] = { size: axis.size * inner.size, strides: inner.strides };
    } else merged.push(axis);
  }
  merged.reverse();
  return { shape: merged.map((a) => a.size), strides: strides.map((_, k) => merged.map((a) => at(a.strides, k, 'array'))) };
}

export { collapseDims };
export type { Collapsed };
