// A group's kernel over the values of one run: rebound to the new addresses
// where the group ran last over values of the same layout (a compiled
// function's plan, run again), else built and compiled (compiling is cached
// by the spec's hash). Kept per group, apart from any run.
import type { CompiledModule, KernelSpec } from 'kernels-wasm';
import { sameShape } from '../ir/shape.js';
import type { FusedGroup } from '../plan/plan.js';
import type { HeapValue } from './heap-value.js';
import { buildKernel } from './kernel-builder.js';
import type { BuiltKernel } from './kernel-builder.js';

/** Compiles a kernel, or finds it compiled, in the backend's cache. */
type Compile = (spec: KernelSpec) => CompiledModule;

const compiledKernel = (compile: Compile, built: BuiltKernel): { built: BuiltKernel; compiled: CompiledModule } => ({ built, compiled: compile(built.spec) });

/** The layout of the values a group's kernel was last built for, and that kernel. */
interface LastBuilt {
  readonly layout: ReadonlyArray<Pick<HeapValue, 'dtype' | 'shape' | 'strides'>>;
  readonly built: BuiltKernel;
  readonly compiled: CompiledModule;
}

const lastBuilt = new WeakMap<FusedGroup, LastBuilt>();

/** A group's kernel over these values (see the head of this file). */
function elementwiseKernel(compile: Compile, g: FusedGroup, inputs: readonly HeapValue[], outputs: readonly HeapValue[]): { built: BuiltKernel; compiled: CompiledModule } {
  const values = [...inputs, ...outputs];
  const last = lastBuilt.get(g);
  if (last && last.layout.length === values.length &&
    last.layout.every((v, i) => v.dtype === values[i]!.dtype && sameShape(v.shape, values[i]!.shape) && sameShape(v.strides, values[i]!.strides))) {
    const { arrays, temps } = last.built.rebind!(inputs, outputs);
    return { built: { ...last.built, arrays, ...(temps ? { temps } : {}) }, compiled: last.compiled };
  }
  const made = compiledKernel(compile, buildKernel(g, inputs, outputs));
  lastBuilt.set(g, { layout: values.map(({ dtype, shape, strides }) => ({ dtype, shape, strides })), ...made });
  return made;
}

export { compiledKernel, elementwiseKernel };
export type { Compile };
