// Checks a KernelSpec before lowering, so that a malformed spec fails with a
// message naming the instruction instead of as an invalid module.
import { intRange, is64K } from './context.js';
import { isBoolResult } from './op-rules.js';
import { CONTRACTION_DTYPES, KTYPE_BYTES } from './kernel-spec.js';
import type { KBinary, KInstr, KType, KUnary, KernelSpec } from './kernel-spec.js';

const TYPES: ReadonlySet<KType> = new Set(Object.keys(KTYPE_BYTES) as KType[]);

/** The ops kernels compute in int64 and uint64 (i64 locals, or i64x2 lanes), and their sums, products and extremes in row kernels; there are no scans or gathers of them yet. */
const INT64_UNARY: ReadonlySet<KUnary> = new Set<KUnary>(['negative', 'abs', 'square', 'positive', 'floor', 'ceil', 'trunc', 'round', 'invert', 'logicalNot', 'isnan', 'isinf', 'isfinite', 'signbit', 'sign']);
const INT64_BINARY: ReadonlySet<KBinary> = new Set<KBinary>([
  'add', 'subtract', 'multiply', 'minimum', 'maximum', 'fmax', 'fmin', 'equal', 'notEqual', 'less', 'lessEqual', 'greater', 'greaterEqual',
  'logicalAnd', 'logicalOr', 'logicalXor', 'bitwiseAnd', 'bitwiseOr', 'bitwiseXor', 'leftShift', 'rightShift', 'floorDivide', 'mod', 'fmod', 'gcd',
]);

/** Specs and instructions as JSON, int64 and uint64 constants (bigints) written as `${v}n`, unlike any number. */
const specJson = (x: unknown): string => JSON.stringify(x, (_, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v));

/** Why `ins` (whose value or operands hold int64 or uint64) is not one the scalar loop computes, or undefined. */
function int64Refusal(ins: KInstr): string | undefined {
  switch (ins.op) {
    case 'load': case 'store': case 'const': case 'cast': case 'select': return undefined;
    case 'unary': return INT64_UNARY.has(ins.fn) ? undefined : `${ins.fn} has no int64 or uint64 kernel form yet`;
    case 'binary': return INT64_BINARY.has(ins.fn) ? undefined : `${ins.fn} has no int64 or uint64 kernel form yet`;
    case 'reduce': return ins.fn === 'sum' || ins.fn === 'prod' || ins.fn === 'min' || ins.fn === 'max' ? undefined : `${ins.fn} of int64 or uint64 has no kernel form`;
    default: return `int64 and uint64 have no ${ins.op} in kernels yet`;
  }
}

function validateSpec(spec: KernelSpec): void {
  const fail = (v: number, why: string): never => {
    throw new TypeError(`KernelSpec instruction ${v} (${specJson(spec.body[v])}): ${why}`);
  };
  if (!Number.isInteger(spec.ndim) || spec.ndim < 1) throw new TypeError(`KernelSpec.ndim must be a positive integer; got ${spec.ndim}`);
  if (spec.mode === 'columns' && spec.ndim !== 2) throw new TypeError(`KernelSpec in 'columns' mode must have ndim 2 ([rows, columns]); got ${spec.ndim}`);
  spec.arrays.forEach((a, k) => {
    if (!TYPES.has(a.dtype)) throw new TypeError(`KernelSpec array ${k} has unknown dtype ${String(a.dtype)}`);
    if (is64K(a.dtype) && (a.random || a.gathered || spec.mode === 'columns' || spec.contraction)) {
      throw new TypeError(`KernelSpec array ${k} is ${a.dtype}, which a kernel reads in a 'rows' kernel only (not random, gathered, in columns mode or a contraction)`);
    }
    if (a.gathered) {
      const why = a.role !== 'in' ? 'must be an input' : a.random ? 'cannot be random'
        : spec.mode === 'columns' || spec.contraction || spec.temps ? "is read in a plain 'rows' kernel only (no columns mode, contraction or temporaries)"
          : spec.body.some((ins) => ins.op === 'load' && ins.array === k) ? 'is read by gathers only, not loaded' : undefined;
      if (why) throw new TypeError(`KernelSpec array ${k} is gathered, so it ${why}`);
    }
    if (!a.random) return;
    const why = a.role !== 'in' ? 'must be an input'
      : a.dtype !== 'float64' && a.dtype !== 'float32' && a.dtype !== 'int32' ? 'must be float64, float32 or int32 (the counter itself)'
        : spec.mode === 'columns' ? "cannot be read in 'columns' mode"
          : spec.contraction?.product === k ? 'cannot be the product' : undefined;
    if (why) throw new TypeError(`KernelSpec array ${k} is random, so it ${why}`);
  });
  if (spec.contraction) validateContraction(spec, spec.contraction);
  if (spec.temps) validateTemps(spec, spec.temps);
  const slots = new Set<number>();
  spec.body.forEach((ins: KInstr, v) => {
    if (!TYPES.has(ins.type)) fail(v, `unknown type ${String(ins.type)}`);
    const operands = ins.op === 'unary' || ins.op === 'cast' || ins.op === 'reduce' || ins.op === 'scan' || ins.op === 'store' ? [ins.arg]
      : ins.op === 'binary' || ins.op === 'select' ? ins.args : [];
    if (is64K(ins.type) || operands.some((a) => { const t = spec.body[a]?.type; return t !== undefined && is64K(t); })) {
      const why = int64Refusal(ins);
      if (why) fail(v, why);
    }
    const arg = (a: number): KType => {
      const src = Number.isInteger(a) && a >= 0 && a < v ? spec.body[a] : undefined;
      if (!src) return fail(v, `operand ${a} is not an earlier value`);
      if (src.op === 'store' || src.op === 'reduce') fail(v, `operand ${a} is a ${src.op}, which has no value`);
      return src.type;
    };
    const array = (k: number, role: 'in' | 'out'): void => {
      const a = spec.arrays[k];
      if (!a) return fail(v, `array ${k} does not exist`);
      if (a.role !== role) fail(v, `array ${k} is an ${a.role}put`);
      if (a.dtype !== ins.type) fail(v, `array ${k} holds ${a.dtype}, not ${ins.type}`);
    };
    switch (ins.op) {
      case 'load': array(ins.array, 'in'); break;
      case 'gather':
        array(ins.array, 'in');
        if (!spec.arrays[ins.array]?.gathered) fail(v, `array ${ins.array} is not marked gathered`);
        if (!['int32', 'int64', 'uint64'].includes(arg(ins.index))) fail(v, 'the index of a gather must be int32, int64 or uint64');
        if (ins.mode !== 'raise' && ins.mode !== 'wrap' && ins.mode !== 'clip') fail(v, `mode must be 'raise', 'wrap' or 'clip'; got ${String(ins.mode)}`);
        break;
      case 'store': array(ins.array, 'out'); if (arg(ins.arg) !== ins.type) fail(v, 'stored value has another type'); break;
      case 'const': {
        if (ins.type === 'float64' || ins.type === 'float32') {
          if (typeof ins.value !== 'number') fail(v, `a ${ins.type} constant is a number`);
          break;
        }
        if (is64K(ins.type)) {
          const [lo, hi] = ins.type === 'int64' ? [-(2n ** 63n), 2n ** 63n - 1n] : [0n, 2n ** 64n - 1n];
          if (typeof ins.value !== 'bigint' || ins.value < lo || ins.value > hi) fail(v, `${specJson(ins.value)} is not a ${ins.type} value (a bigint from ${lo} to ${hi})`);
          break;
        }
        // An integer constant is a value of its type: the loops hold it as that type's values are held.
        const [lo, hi] = intRange(ins.type);
        if (typeof ins.value !== 'number' || !Number.isInteger(ins.value) || ins.value < lo || ins.value > hi) fail(v, `${ins.value} is not a ${ins.type} value (${lo} to ${hi})`);
        break;
      }
      case 'cast': arg(ins.arg); break;
      case 'select': {
        const [c, a, b] = ins.args;
        if (arg(c) !== 'bool') fail(v, 'the condition of select must be bool');
        if (arg(a) !== ins.type || arg(b) !== ins.type) fail(v, 'both branches of select must have its type');
        break;
      }
      case 'unary': {
        const t = arg(ins.arg);
        const want = isBoolResult(ins.fn) ? 'bool' : t;
        if (ins.type !== want) fail(v, `${ins.fn} of ${t} produces ${want}`);
        break;
      }
      case 'binary': {
        const [a, b] = ins.args.map(arg) as [KType, KType];
        if (a !== b) fail(v, `operands have different types (${a}, ${b}); cast them to one first`);
        const want = isBoolResult(ins.fn) ? 'bool' : a;
        if (ins.type !== want) fail(v, `${ins.fn} of ${a} produces ${want}`);
        break;
      }
      case 'scan': {
        if (ins.fn !== 'sum' && ins.fn !== 'prod') fail(v, `scans are sums or products; got ${String(ins.fn)}`);
        if (ins.type === 'bool') fail(v, 'a scan accumulates numbers; cast bools first');
        if (spec.contraction || spec.temps) fail(v, 'a scan runs in a kernel without a contraction or temporaries');
      }
      // falls through: slots and operand types as for reductions
      case 'reduce': {
        const t = arg(ins.arg);
        if (t !== ins.type) fail(v, `${ins.op} type must be the type of its operand`);
        if (ins.op === 'reduce' && (ins.fn === 'any' || ins.fn === 'all') && t !== 'bool') fail(v, `${ins.fn} reduces bools; cast to bool first`);
        // argmax and argmin take two slots: the value's and its position's.
        const isArg = ins.op === 'reduce' && (ins.fn === 'argmax' || ins.fn === 'argmin');
        const position = ins.op === 'reduce' ? ins.position : undefined;
        if (isArg) {
          if (position === undefined) fail(v, `${ins.fn} needs a position slot`);
          if (t === 'bool') fail(v, `${ins.fn} compares numbers; cast bools first`);
        } else if (position !== undefined) fail(v, `only argmax and argmin have a position slot`);
        const taken = position === undefined ? [ins.slot] : [ins.slot, position];
        for (const slot of taken) {
          if (!Number.isInteger(slot) || slot < 0 || slot >= spec.slots) fail(v, `slot ${slot} is outside 0..${spec.slots - 1}`);
          if (slots.has(slot)) fail(v, `slot ${slot} is used twice`);
          slots.add(slot);
        }
        break;
      }
    }
  });
}

function validateContraction(spec: KernelSpec, c: NonNullable<KernelSpec['contraction']>): void {
  const fail = (why: string): never => { throw new TypeError(`KernelSpec.contraction ${JSON.stringify(c)}: ${why}`); };
  if (!(CONTRACTION_DTYPES as readonly string[]).includes(c.dtype)) fail(`dtype must be one of ${CONTRACTION_DTYPES.join(', ')}`);
  if (c.vectorise !== 'columns' && c.vectorise !== 'rows') fail("vectorise must be 'columns' or 'rows'");
  const a = spec.arrays[c.product];
  if (!a) return fail(`product array ${c.product} does not exist`);
  // A one-element product collapses to a broadcast (stride 0) inner axis; the launch checks the strides.
  if (a.role !== 'in' || a.dtype !== c.dtype || a.inner === 'strided') fail(`product array ${c.product} must be a contiguous ${c.dtype} input of the body`);
  if (spec.mode === 'columns') fail("a contraction runs in 'rows' mode");
  if (spec.slots !== 0 || spec.body.some((i) => i.op === 'reduce')) fail('a contraction kernel has no reductions');
}

function validateTemps(spec: KernelSpec, temps: NonNullable<KernelSpec['temps']>): void {
  if (spec.mode === 'columns') throw new TypeError("KernelSpec.temps: a kernel with pinned temporaries runs in 'rows' mode");
  const used = new Set<number>();
  temps.forEach((t, i) => {
    const fail = (why: string): never => { throw new TypeError(`KernelSpec.temps[${i}]: ${why}`); };
    const a = spec.arrays[t.array];
    if (!a || a.role !== 'in') return fail(`array ${t.array} must be an input of the body`);
    if (used.has(t.array)) fail(`array ${t.array} reads another temporary already`);
    used.add(t.array);
    const k = t.kernel;
    if (k.temps || k.contraction || k.mode === 'columns' || k.slots !== 0) fail("its kernel must be plain elementwise ('rows', no reductions, contraction or temporaries)");
    const out = k.arrays[t.out];
    if (!out || out.role !== 'out' || out.dtype !== a.dtype) fail(`its array ${t.out} must be an output of ${a.dtype}, the body array's dtype`);
    const stores = k.body.filter((ins) => ins.op === 'store');
    if (stores.length !== 1 || stores[0]?.array !== t.out) fail(`its kernel must store once, into array ${t.out}`);
    try {
      validateSpec(k);
    } catch (e) {
      fail(`its kernel: ${(e as Error).message}`);
    }
  });
}

export { INT64_UNARY, INT64_BINARY, specJson, validateSpec };
