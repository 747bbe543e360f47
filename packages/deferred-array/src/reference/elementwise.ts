// Elementwise ops with broadcasting: each operand is read through a view map
// whose broadcast axes have stride 0.
import type { Node, ViewMap } from '../ir/node.js';
import { OPS, isBinaryOp, isUnaryOp } from '../ir/op-table.js';
import { contiguousStrides } from '../ir/shape.js';
import type { Shape } from '../ir/shape.js';
import type { NumberArray } from '../ir/dtypes.js';
import { resolveElementwise } from '../ir/type-rules.js';
import { castImpl } from './cast.js';
import { allocDense, forEachStrided } from '../core/dense.js';
import type { Dense } from '../core/dense.js';
import type { RunFlags } from '../core/flags.js';
import { binaryImpl, fmax, fmin, truthy, unaryImpl } from './scalar-math.js';

/** How an operand of shape `from` is read when broadcast to `to`. */
function broadcastMap(from: Shape, to: Shape): ViewMap {
  const strides = contiguousStrides(from);
  const lead = to.length - from.length;
  return { strides: to.map((_, i) => (i < lead || from[i - lead] === 1 ? 0 : strides[i - lead]!)), offset: 0 };
}

function evaluateElementwise(node: Node, inputs: readonly Dense[], flags: RunFlags): Dense {
  const out = allocDense(node.dtype, node.shape);
  const o = out.data;
  const maps = inputs.map((x) => broadcastMap(x.shape, node.shape));
  // Numbers only: values holding bigints go to evaluateElementwise64.
  const [a, b, c] = inputs.map((x) => x.data as NumberArray);
  const op = node.op;
  if (OPS[op].family === 'cast') {
    const f = castImpl(inputs[0]!.dtype, node.dtype, flags);
    forEachStrided(node.shape, maps, (i, ia) => { o[i] = f(a![ia]!); });
  } else if (isUnaryOp(op)) {
    const { compute } = resolveElementwise(op, [inputs[0]!.dtype]);
    const f = unaryImpl(op, compute, flags);
    forEachStrided(node.shape, maps, (i, ia) => { o[i] = f(a![ia]!); });
  } else if (isBinaryOp(op)) {
    const { compute } = resolveElementwise(op, inputs.map((x) => x.dtype));
    const f = binaryImpl(op, compute, flags);
    forEachStrided(node.shape, maps, (i, ia, ib) => { o[i] = f(a![ia]!, b![ib]!); });
  } else if (node.op === 'where') {
    forEachStrided(node.shape, maps, (i, ic, ix, iy) => { o[i] = truthy(a![ic]!) ? b![ix]! : c![iy]!; });
  } else if (node.op === 'clip') {
    // NumPy: minimum(maximum(x, lo), hi), NaN anywhere propagating.
    const { compute } = resolveElementwise('clip', inputs.map((x) => x.dtype));
    const isF = compute === 'float32' || compute === 'float64';
    const hi = isF ? fmin : Math.min;
    const lo = isF ? fmax : Math.max;
    forEachStrided(node.shape, maps, (i, ix, il, ih) => { o[i] = hi(lo(a![ix]!, b![il]!), c![ih]!); });
  } else {
    throw new Error(`internal: ${node.op} is not elementwise`);
  }
  return out;
}

export { evaluateElementwise, broadcastMap };
