// A small graph of the common kinds of node (a source, constants, unary and
// binary ufuncs, a cast, a view, a reduction), kept for the process: the
// shapes of handles, nodes and their attributes stay alive through full
// collections, so code that builds graphs per call and keeps none is not
// optimized again after each one (see util/keep-shapes.ts).
import { keepShape } from '../util/keep-shapes.js';
import { wrap } from './creation.js';
import './methods.js';

keepShape('graph', () => {
  const x = wrap(new Float64Array(2));
  const y = x.mul(1.5).add(x).sub(0.25).abs().sqrt();
  return [x, y, y.gt(0), y.astype('float32'), y.reshape([2, 1]).T, y.sum(), y.sum({ axis: 0 }).mean()];
});
