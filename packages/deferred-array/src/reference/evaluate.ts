// Evaluates one node from its inputs' values.
import type { FamilyNode, Node } from '../ir/node.js';
import { InternalError, at } from '../util/lookup.js';
import { isBigInt, setElement } from '../ir/dtypes.js';
import { evaluateElementwise64 } from './elementwise-64.js';
import { allocDense, gather } from '../core/dense.js';
import type { Dense } from '../core/dense.js';
import { evaluateElementwise } from './elementwise.js';
import type { RunFlags } from '../core/flags.js';
import { concatDense } from './join.js';
import { takeDense } from './gather.js';
import { scanDense } from './scan.js';
import { searchDense, sortDense } from './sort.js';
import { addAtDense } from './scatter.js';
import { decompDense } from './decomp.js';
import { evaluateDot, evaluateMatmul, evaluateOuter } from './linalg.js';
import { randomDense } from './philox.js';
import { evaluateReduce } from './reduce.js';

/** A leaf's values: a random array's computed, a stored version's read where it lives (the heap block holding it), a source's own. */
function leafValue(node: FamilyNode<'source'>): Dense {
  switch (node.op) {
    case 'random': return randomDense(node);
    case 'iota': return { dtype: 'int32', shape: node.shape, data: Int32Array.from({ length: node.shape[0] ?? 1 }, (_, i) => i) };
    case 'stored': return { dtype: node.dtype, shape: node.shape, data: node.attrs.storage.view(node.attrs.version) };
    case 'source': return { dtype: node.dtype, shape: node.shape, data: node.attrs.data };
    case 'placeholder': throw new InternalError(`placeholder ${node.attrs.label ?? node.id} reached the evaluator unbound`);
  }
}

function evaluateLinalg(node: FamilyNode<'linalg'>, a: Dense, b: Dense): Dense {
  switch (node.op) {
    case 'matmul': return evaluateMatmul(node, a, b);
    case 'dot': return evaluateDot(node, a, b);
    case 'outer': return evaluateOuter(node, a, b);
  }
}

function evaluateNode(node: Node, inputs: readonly Dense[], flags: RunFlags): Dense {
  const input = (i: number): Dense => at(inputs, i, `${node.op}'s input values`);
  switch (node.family) {
    case 'source':
      return leafValue(node);
    case 'scalar': {
      const out = allocDense(node.dtype, []);
      setElement(out.data, 0, node.attrs.value);
      return out;
    }
    case 'unary': case 'binary': case 'ternary': case 'cast':
      return isBigInt(node.dtype) || inputs.some((x) => isBigInt(x.dtype)) ? evaluateElementwise64(node, inputs, flags) : evaluateElementwise(node, inputs, flags);
    case 'reduce':
      return evaluateReduce(node, input(0));
    case 'view':
      return gather(input(0), node.shape, node.attrs.view);
    case 'reshape':
      // Values are row-major, so a reshape is the same data under a new shape.
      return { dtype: node.dtype, shape: node.shape, data: input(0).data };
    case 'join':
      return concatDense(node, inputs);
    case 'gather':
      return takeDense(node, input(0), input(1));
    case 'scan':
      return scanDense(node, input(0));
    case 'sort':
      return sortDense(node, input(0));
    case 'search':
      return searchDense(node, input(0), input(1));
    case 'scatter':
      return addAtDense(node, input(0), input(1), input(2), flags);
    case 'decomp':
      return decompDense(node, inputs);
    case 'cond':
      throw new InternalError('a cond reached a backend; the linker resolves every cond before planning');
    case 'linalg':
      return evaluateLinalg(node, input(0), input(1));
  }
}

export { evaluateNode };
