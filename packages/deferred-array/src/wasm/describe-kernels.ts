// Describes the kernels a plan would launch, without running anything: the
// windows every value would have are worked out from shapes and views alone
// (addresses are left at 0), the specs built and compiled, and each kernel
// disassembled. Behind explain({ kernels: true }).
import { compileKernel, disassembleFunction } from 'kernels-wasm';
import { viewOf } from '../ir/node.js';
import type { CompiledModule, KernelSpec } from 'kernels-wasm';
import type { Node, NodeOf } from '../ir/node.js';
import { buildGather, gatherLabel, gathers } from './gather-kernel.js';
import { groupNodes } from '../plan/plan.js';
import type { Plan } from '../plan/plan.js';
import { atAddress, composeView } from './heap-value.js';
import type { HeapValue } from './heap-value.js';
import { buildContraction, buildKernel } from './kernel-builder.js';

const placeholder = (n: Node): HeapValue => atAddress(0, n.dtype, n.shape);

/** `compile` is the backend's own kernel cache, so that what explain() compiles a run reuses. */
function describeKernels(plan: Plan, compile: (spec: KernelSpec) => CompiledModule = compileKernel): string[] {
  const values = new Map<Node, HeapValue>();
  const out: string[] = [];
  for (const step of plan.steps) {
    if (step.kind === 'node') {
      // Views keep their input's window; anything else (a copy, a reshape, a host step) is row-major.
      const n = step.node;
      const [first] = n.inputs;
      const x = first && values.get(first);
      const view = viewOf(n);
      values.set(n, view && x ? composeView(x, view, n.shape) : placeholder(n));
      const indices = n.inputs[1] && values.get(n.inputs[1]);
      if (n.op === 'take' && x && indices && gathers(x, indices, n.shape)) {
        const compiled = compile(buildGather(n as NodeOf<'take'>, x, indices, placeholder(n)).spec);
        out.push(`${gatherLabel(n as NodeOf<'take'>)}: gather kernel, scalar loop, compiled in ${compiled.compileMs.toFixed(2)} ms\n` +
          disassembleFunction(compiled.bytes, 'kernel'));
      }
      continue;
    }
    const g = step.group;
    const inputs = g.inputs.map((n) => values.get(n)!);
    const built = g.contraction
      ? buildContraction(g, inputs, g.stores.map(placeholder), (v, dtype) => atAddress(0, dtype, v.shape))
      : buildKernel(g, inputs, g.stores.map(placeholder));
    for (const n of groupNodes(g)) values.set(n, placeholder(n));
    const compiled = compile(built.spec);
    const c = built.spec.contraction;
    const how = (c ? `${c.dtype} matrix product (lanes along its ${c.vectorise}) per block, then the epilogue ` : '') +
      (compiled.lanes ? `vectorised as ${compiled.lanes}` : 'scalar loop');
    const host = compiled.hostKeys.length ? `; host functions: ${compiled.hostKeys.join(', ')}` : '';
    out.push(`kernel ${g.id}: ${built.spec.ndim}-d iteration space, ${how}${host}, compiled in ${compiled.compileMs.toFixed(2)} ms\n` +
      disassembleFunction(compiled.bytes, 'kernel'));
  }
  return out;
}

export { describeKernels };
