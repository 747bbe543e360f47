// A test and measurement harness: a module whose exported
// apply(inPtr, [in2Ptr,] outPtr, n) maps one math function over n elements
// (n a multiple of the lane count) with v128 loads and stores, and a runner
// that pads JS arrays into its memory and reads the results back.
import { ModuleBuilder } from '../encode/module-builder.js';
import { HEAP_BASE } from '../heap/constants.js';
import { constantsFor, emitMathInline, mathFunction } from './math-function.js';
import type { ConstantPool } from './constant-pool.js';
import { MATH_ARITY } from './registry.js';
import type { MathFn, MathLanes } from './registry.js';

type Floats = Float64Array | Float32Array;

interface MathRunner {
  readonly fn: MathFn;
  readonly lanes: MathLanes;
  /** fn applied element-wise; `b` is the second operand of the binary ones (pow, atan2, hypot, logaddexp, logaddexp2). */
  run(a: Floats, b?: Floats): Floats;
}

const PAGE = 65536;
const MAX_PAGES = 32768; // 2 GiB, only reserved as the runs need it

interface HarnessOptions {
  /** Numbers the module's constants instead of the process-wide table (tests of the table itself). */
  readonly pool?: ConstantPool | undefined;
  /** The routine written into the loop (as kernels do) instead of called. */
  readonly inline?: boolean | undefined;
}

function buildMathModule(fn: MathFn, lanes: MathLanes, { pool, inline = false }: HarnessOptions = {}): Uint8Array {
  const m = new ModuleBuilder().importMemory({ module: 'env', name: 'memory', initial: 1, maximum: MAX_PAGES, shared: false });
  if (pool) constantsFor(m, pool);
  const math = inline ? undefined : mathFunction(m, fn, lanes);
  const binary = MATH_ARITY[fn] === 2;
  const params = binary ? (['i32', 'i32', 'i32', 'i32'] as const) : (['i32', 'i32', 'i32'] as const);
  const [, f] = m.func('apply', params, [], true);
  const a = f.param(0);
  const b = binary ? f.param(1) : undefined;
  const out = f.param(binary ? 2 : 1);
  const n = f.param(binary ? 3 : 2);
  const bytesPerElement = lanes === 'f64x2' ? 8 : 4;
  const offset = f.local('i32');
  const end = f.local('i32');
  f.op('local.get', n).op('i32.const', bytesPerElement).op('i32.mul').op('local.set', end);
  f.block().loop();
  f.op('local.get', offset).op('local.get', end).op('i32.ge_u').op('br_if', 1);
  f.op('local.get', out).op('local.get', offset).op('i32.add');
  f.op('local.get', a).op('local.get', offset).op('i32.add').mem('v128.load');
  if (b !== undefined) f.op('local.get', b).op('local.get', offset).op('i32.add').mem('v128.load');
  if (math === undefined) emitMathInline(m, f, fn, lanes);
  else f.op('call', math);
  f.mem('v128.store');
  f.op('local.get', offset).op('i32.const', 16).op('i32.add').op('local.set', offset).op('br', 0);
  f.end().end();
  return m.toBytes();
}

function createMathRunner(fn: MathFn, lanes: MathLanes, options: HarnessOptions = {}): MathRunner {
  const memory = new WebAssembly.Memory({ initial: 1, maximum: MAX_PAGES });
  const module = new WebAssembly.Module(new Uint8Array(buildMathModule(fn, lanes, options)));
  const instance = new WebAssembly.Instance(module, { env: { memory } });
  const apply = instance.exports['apply'] as (...args: number[]) => void;
  const Ctor = lanes === 'f64x2' ? Float64Array : Float32Array;
  const perVector = lanes === 'f64x2' ? 2 : 4;
  return {
    fn,
    lanes,
    run(a, b) {
      if ((MATH_ARITY[fn] === 2) !== (b !== undefined)) throw new TypeError(`${fn} takes ${MATH_ARITY[fn]} operand(s)`);
      if (b && b.length !== a.length) throw new RangeError(`operands differ in length: ${a.length} and ${b.length}`);
      const padded = Math.ceil(a.length / perVector) * perVector;
      const bytes = padded * Ctor.BYTES_PER_ELEMENT;
      const operands = b ? 3 : 2;
      const need = Math.ceil((HEAP_BASE + operands * bytes) / PAGE) + 1;
      const have = memory.buffer.byteLength / PAGE;
      if (need > have) memory.grow(need - have);
      // Operands above HEAP_BASE, clear of the constant table the module's data segment wrote.
      const at = (i: number): number => HEAP_BASE + i * bytes;
      const view = (i: number): Floats => new Ctor(memory.buffer, at(i), padded);
      view(0).fill(0).set(a);
      if (b) view(1).fill(0).set(b);
      const outIndex = operands - 1;
      if (b) apply(at(0), at(1), at(outIndex), padded);
      else apply(at(0), at(outIndex), padded);
      return view(outIndex).slice(0, a.length);
    },
  };
}

export { createMathRunner, buildMathModule };
export type { MathRunner, Floats, HarnessOptions };
