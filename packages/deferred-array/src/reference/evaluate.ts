// Evaluates one node from its inputs' values.
import type { Node } from '../ir/node.js';
import { OPS } from '../ir/op-table.js';
import { allocDense, gather } from '../core/dense.js';
import type { Dense } from '../core/dense.js';
import { evaluateElementwise } from './elementwise.js';
import type { RunFlags } from '../core/flags.js';
import { concatDense } from './join.js';
import { takeDense } from './gather.js';
import { scanDense } from './scan.js';
import { evaluateDot, evaluateMatmul, evaluateOuter } from './linalg.js';
import { randomDense } from './philox.js';
import { evaluateReduce } from './reduce.js';

function evaluateNode(node: Node, inputs: readonly Dense[], flags: RunFlags): Dense {
  const family = OPS[node.op].family;
  switch (family) {
    case 'source':
      if (node.op === 'random') return randomDense(node);
      // A stored version is read where it lives (the heap block holding it), as a source's own data is.
      return { dtype: node.dtype, shape: node.shape, data: node.op === 'stored' ? node.attrs.storage!.view(node.attrs.version!) : node.attrs.data! };
    case 'scalar': {
      const out = allocDense(node.dtype, []);
      out.data[0] = node.attrs.value!;
      return out;
    }
    case 'unary': case 'binary': case 'ternary': case 'cast':
      return evaluateElementwise(node, inputs, flags);
    case 'reduce':
      return evaluateReduce(node, inputs[0]!);
    case 'view':
      return gather(inputs[0]!, node.shape, node.attrs.view!);
    case 'reshape':
      // Values are row-major, so a reshape is the same data under a new shape.
      return { dtype: node.dtype, shape: node.shape, data: inputs[0]!.data };
    case 'join':
      return concatDense(node, inputs);
    case 'gather':
      return takeDense(node, inputs[0]!, inputs[1]!);
    case 'scan':
      return scanDense(node, inputs[0]!);
    case 'cond':
      throw new Error('internal: a cond reached a backend; the linker resolves every cond before planning');
    case 'linalg':
      if (node.op === 'matmul') return evaluateMatmul(node, inputs[0]!, inputs[1]!);
      if (node.op === 'dot') return evaluateDot(node, inputs[0]!, inputs[1]!);
      return evaluateOuter(node, inputs[0]!, inputs[1]!);
  }
}

export { evaluateNode };
