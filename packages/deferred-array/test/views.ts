// For kernel tests that read their operands through views: a flat array
// made into the case's shape and read as the case asks (every other element,
// reversed along axis 0, or transposed), so that kernels meet negative and
// non-unit strides.
import type * as da from '../src/index.js';

type View = 'none' | 'reversed' | 'strided' | 'transposed';

/** Elements a flat array needs for `size` elements read through `view` ('strided' reads every other). */
const flatLength = (size: number, view: View): number => (view === 'strided' ? 2 * size : size);

/** `flat` (flatLength elements) as `shape`, read through `view`. */
function throughView(flat: da.DeferredArray, shape: readonly number[], view: View): da.DeferredArray {
  const x = (view === 'strided' ? flat.get('::2') : flat).reshape([...shape]);
  if (view === 'reversed') return x.get('::-1');
  if (view === 'transposed') return x.transpose();
  return x;
}

export { flatLength, throughView };
export type { View };
