// Collapses an iteration space: drops size-1 axes and merges neighbouring axes
// that every array walks as one (stride[d] == stride[d+1] * shape[d+1]), so a
// contiguous 3-D array runs as one long row.

interface Collapsed {
  readonly shape: number[];
  /** strides[k][d]: array k's element stride on axis d. */
  readonly strides: number[][];
}

function collapseDims(shape: readonly number[], strides: readonly (readonly number[])[]): Collapsed {
  const keep = shape.map((_, d) => d).filter((d) => shape[d] !== 1);
  let outShape = keep.map((d) => shape[d]!);
  let outStrides = strides.map((s) => keep.map((d) => s[d]!));
  // An empty or one-element space: each array keeps its innermost stride, so
  // the kernel is the one a longer space of the same layout compiles to.
  const innermost = (): number[][] => strides.map((s) => [s[s.length - 1] ?? 0]);
  if (outShape.includes(0)) return { shape: [0], strides: innermost() };
  for (let d = outShape.length - 2; d >= 0; d--) {
    const inner = outShape[d + 1]!;
    if (outStrides.every((s) => s[d] === s[d + 1]! * inner)) {
      outShape = [...outShape.slice(0, d), outShape[d]! * inner, ...outShape.slice(d + 2)];
      outStrides = outStrides.map((s) => [...s.slice(0, d), s[d + 1]!, ...s.slice(d + 2)]);
    }
  }
  if (outShape.length === 0) return { shape: [1], strides: innermost() };
  return { shape: outShape, strides: outStrides };
}

export { collapseDims };
export type { Collapsed };
