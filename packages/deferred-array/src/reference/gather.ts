// take: elements picked along one axis by an integer array.
import { ExecutionError } from '../ir/errors.js';
import { outOfBounds, resolveTake, resolveTakeBig } from '../ir/build-gather.js';
import type { NodeOf } from '../ir/node.js';
import { axisLength } from '../ir/shape.js';
import { allocDense } from '../core/dense.js';
import type { Dense } from '../core/dense.js';

/** x and the indices are row-major (Dense); the output is too: [outer, index, inner]. */
function takeDense(node: NodeOf<'take'>, x: Dense, indices: Dense): Dense {
  const { axis, mode } = node.attrs;
  const n = axisLength(x.shape, axis);
  const outer = x.shape.slice(0, axis).reduce((p, d) => p * d, 1);
  const inner = x.shape.slice(axis + 1).reduce((p, d) => p * d, 1);
  // int64 indices resolved exactly (a wrap of one past 2^53 as a number would round first); errors name them as numbers.
  const picks = Array.from(indices.data as ArrayLike<number | bigint>, (b) => {
    const r = n === 0 ? undefined : typeof b === 'bigint' ? resolveTakeBig(b, n, mode) : resolveTake(b, n, mode);
    if (r === undefined) throw new ExecutionError(outOfBounds(Number(b), axis, n));
    return r;
  });
  const out = allocDense(node.dtype, node.shape);
  const src = x.data;
  const dst = out.data;
  let o = 0;
  for (let a = 0; a < outer; a++) {
    for (const p of picks) {
      const base = (a * n + p) * inner;
      for (let k = 0; k < inner; k++) dst[o++] = src[base + k]!;
    }
  }
  return out;
}

export { takeDense };
