// Stride arithmetic on windows: whether several axes walk memory as one.

/** The one stride that walks `axes` (in order) as a single axis, or undefined when they do not chain. */
function mergeAxes(shape: readonly number[], strides: readonly number[], axes: readonly number[]): number | undefined {
  const live = axes.filter((d) => shape[d] !== 1);
  for (let i = 0; i + 1 < live.length; i++) {
    if (strides[live[i]!] !== strides[live[i + 1]!]! * shape[live[i + 1]!]!) return undefined;
  }
  return live.length === 0 ? 0 : strides[live[live.length - 1]!]!;
}

export { mergeAxes };
