// The order in which einsum contracts three or more operands: greedy, as
// opt_einsum's (and NumPy's optimize='greedy'): at each step, the pair whose
// product removes the most elements, (size of the result) - (sizes of the
// pair), among pairs that share a label; outer products only when no pair does.
type Labels = readonly string[];

/** One step: the positions of the pair in the current list; their result goes last. */
type PathStep = readonly [number, number];

const sizeOf = (labels: Iterable<string>, sizes: ReadonlyMap<string, number>): number => {
  let n = 1;
  for (const l of labels) n *= sizes.get(l)!;
  return n;
};

/**
 * The labels a product of terms i and j keeps: those the output or another
 * remaining term still needs, in the order [shared, i's own, j's own].
 */
function keptLabels(terms: readonly Labels[], i: number, j: number, output: Labels): string[] {
  const needed = new Set(output);
  terms.forEach((t, k) => {
    if (k !== i && k !== j) for (const l of t) needed.add(l);
  });
  const a = terms[i]!;
  const b = terms[j]!;
  const inB = new Set(b);
  const inA = new Set(a);
  return [...a.filter((l) => inB.has(l)), ...a.filter((l) => !inB.has(l)), ...b.filter((l) => !inA.has(l))].filter((l) => needed.has(l));
}

/** The greedy contraction order of `terms` (each a label list without repeats) into `output`. */
function greedyPath(terms: readonly Labels[], output: Labels, sizes: ReadonlyMap<string, number>): PathStep[] {
  const list = terms.map((t) => [...t]);
  const path: PathStep[] = [];
  while (list.length > 1) {
    const sharing = (i: number, j: number): boolean => list[i]!.some((l) => list[j]!.includes(l));
    let anyShare = false;
    for (let i = 0; i < list.length && !anyShare; i++) for (let j = i + 1; j < list.length; j++) if (sharing(i, j)) anyShare = true;
    let best: { i: number; j: number; cost: number; size: number } | undefined;
    for (let i = 0; i < list.length; i++) {
      for (let j = i + 1; j < list.length; j++) {
        if (anyShare && !sharing(i, j)) continue;
        const size = sizeOf(keptLabels(list, i, j, output), sizes);
        const cost = size - sizeOf(list[i]!, sizes) - sizeOf(list[j]!, sizes);
        if (best === undefined || cost < best.cost || (cost === best.cost && size < best.size)) best = { i, j, cost, size };
      }
    }
    const { i, j } = best!;
    const kept = keptLabels(list, i, j, output);
    list.splice(j, 1);
    list.splice(i, 1);
    list.push(kept);
    path.push([i, j]);
  }
  return path;
}

export { greedyPath, keptLabels };
export type { PathStep };
