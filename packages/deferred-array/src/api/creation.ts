// Array creation: wrap, array, zeros, ones, full, empty, arange, linspace.
import { checkDType, dtypeInfo, isBigInt, isInteger, setElement } from '../ir/dtypes.js';
import type { DType, Scalar } from '../ir/dtypes.js';
import { source } from '../ir/build-elementwise.js';
import { castValue } from '../ir/cast-value.js';
import { defaultDType } from '../ir/type-rules.js';
import { checkShape, sizeOf } from '../ir/shape.js';
import { leafArray } from '../core/small-copies.js';
import { DeferredArray, wrapNode } from './deferred-array.js';
import { checkScalarFits, describe, isArrayInput, sourceFrom } from './operand.js';
import type { ArrayInput, NestedArray } from './operand.js';

interface DTypeOption {
  readonly dtype?: DType;
}

function checkOptions(fn: string, options: unknown, allowed: readonly string[]): Record<string, unknown> {
  if (options === undefined) return {};
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new TypeError(`${fn}: options must be an object like { ${allowed.join(', ')} }; got ${describe(options)}`);
  }
  for (const key of Object.keys(options)) {
    if (!allowed.includes(key)) throw new TypeError(`${fn}: unknown option '${key}' (expected ${allowed.join(', ')})`);
  }
  return options as Record<string, unknown>;
}

function dtypeOption(fn: string, options: unknown, fallback: DType): DType;
function dtypeOption(fn: string, options: unknown, fallback?: DType): DType | undefined;
function dtypeOption(fn: string, options: unknown, fallback?: DType): DType | undefined {
  const o = checkOptions(fn, options, ['dtype']);
  return o['dtype'] === undefined ? fallback : checkDType(o['dtype'], `${fn}: option dtype`);
}

/**
 * Copies an outside array (stdlib ndarray, typed array, nested list) in once;
 * a view result is read in place, with no copy (it must stay live until what
 * reads it has run); a DeferredArray is returned as is.
 */
function wrap(x: DeferredArray | ArrayInput | number | boolean): DeferredArray {
  if (x instanceof DeferredArray) return x;
  return fromOutside('wrap', x, undefined, true);
}

/** A new array from nested lists, typed arrays, ndarrays (view results included, copied) or a scalar (0-d), converted to `dtype` if given. */
function array(x: ArrayInput | number | bigint | boolean, options?: DTypeOption): DeferredArray {
  return fromOutside('array', x, options, false);
}

function fromOutside(fn: string, x: ArrayInput | number | bigint | boolean, options: DTypeOption | undefined, inPlace: boolean): DeferredArray {
  const dtype = dtypeOption(fn, options);
  if (typeof x === 'number' || typeof x === 'boolean' || typeof x === 'bigint') {
    const d = dtype ?? defaultDType(x);
    const v = typeof x === 'boolean' ? Number(x) : x;
    checkScalarFits(v, d, `${fn}: the value`);
    const data = new (dtypeInfo(d).ctor)(1);
    setElement(data, 0, castValue(v, d));
    return wrapNode(source(data, [], d));
  }
  // Other typed arrays reach sourceFrom, whose error names the ones supported.
  if (!isArrayInput(x) && !ArrayBuffer.isView(x)) {
    throw new TypeError(`${fn}: expected a nested list, a typed array, a stdlib ndarray or a scalar; got ${describe(x)}`);
  }
  return wrapNode(sourceFrom(x as ArrayInput | NestedArray, dtype, inPlace));
}

/** A new array of `shape` holding `value` everywhere; `fn` names the caller in errors. */
function filled(fn: string, shape: unknown, value: Scalar, dtype: DType): DeferredArray {
  const s = checkShape(shape, `${fn}: shape`);
  checkScalarFits(value, dtype, `${fn}: the value`);
  const data = leafArray(dtypeInfo(dtype).ctor, sizeOf(s));
  (data as Float64Array).fill(castValue(value, dtype) as number);
  return wrapNode(source(data, s, dtype));
}

function full(shape: number | readonly number[], value: number | boolean | bigint, options?: DTypeOption): DeferredArray {
  if (typeof value !== 'number' && typeof value !== 'boolean' && typeof value !== 'bigint') {
    throw new TypeError(`full: value must be a number, bigint or boolean; got ${describe(value)}`);
  }
  const fallback = typeof value === 'boolean' ? 'bool' : typeof value === 'bigint' ? 'int64' : 'float64';
  return filled('full', shape, typeof value === 'boolean' ? Number(value) : value, dtypeOption('full', options, fallback));
}

function zeros(shape: number | readonly number[], options?: DTypeOption): DeferredArray {
  return filled('zeros', shape, 0, dtypeOption('zeros', options, 'float64'));
}

function ones(shape: number | readonly number[], options?: DTypeOption): DeferredArray {
  return filled('ones', shape, 1, dtypeOption('ones', options, 'float64'));
}

/** JavaScript has no uninitialised memory, so empty() is zeros(); no code should rely on that. */
function empty(shape: number | readonly number[], options?: DTypeOption): DeferredArray {
  return filled('empty', shape, 0, dtypeOption('empty', options, 'float64'));
}

function checkFinite(fn: string, name: string, v: unknown): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new TypeError(`${fn}: ${name} must be a finite number; got ${describe(v)}`);
  return v;
}

/**
 * Evenly spaced values in [start, stop). Integer arguments give int32, the
 * package's default integer (NumPy's is int64); others, and integer ranges
 * that leave int32, give float64, which holds them exactly.
 */
function arange(startOrStop: number, stop?: number | DTypeOption, step?: number | DTypeOption, options?: DTypeOption): DeferredArray {
  // Options may follow any number of positional arguments.
  const args: unknown[] = [startOrStop, stop, step, options].filter((a) => a !== undefined);
  const opts = typeof args[args.length - 1] === 'object' ? args.pop() : undefined;
  if (args.length === 0 || args.length > 3) throw new TypeError('arange: expected arange(stop), arange(start, stop) or arange(start, stop, step)');
  const names = args.length === 1 ? ['stop'] : ['start', 'stop', 'step'];
  const nums = args.map((a, i) => checkFinite('arange', names[i]!, a));
  const [start, end, inc] = nums.length === 1 ? [0, nums[0]!, 1] : [nums[0]!, nums[1]!, nums[2] ?? 1];
  if (inc === 0) throw new RangeError('arange: step must not be zero');
  const n = Math.max(0, Math.ceil((end - start) / inc));
  checkShape([n], 'arange: length');
  const last = start + Math.max(0, n - 1) * inc;
  const integral = nums.every(Number.isInteger) && [start, last].every((v) => v >= -(2 ** 31) && v < 2 ** 31);
  const d = dtypeOption('arange', opts, integral ? 'int32' : 'float64')!;
  const data = new (dtypeInfo(d).ctor)(n);
  if (n > 0) {
    checkScalarFits(start, d, 'arange: start');
    setElement(data, 0, castValue(start, d));
  }
  if (n > 1) {
    checkScalarFits(start + inc, d, 'arange: start + step');
    setElement(data, 1, castValue(start + inc, d));
  }
  if (isBigInt(d)) {
    // Exact past 2^53, wrapping as NumPy's int64 fill does.
    const big = data as BigInt64Array | BigUint64Array;
    const delta = n > 1 ? big[1]! - big[0]! : 0n;
    for (let i = 2; i < n; i++) big[i] = castValue(big[0]! + BigInt(i) * delta, d) as bigint;
    return wrapNode(source(data, [n], d));
  }
  const values = data as Float64Array;
  // NumPy's fill: the step is the difference of the first two stored values,
  // and element i is first + i * step computed in the dtype. Float results
  // therefore match NumPy bit for bit (they differ from start + i * inc).
  if (n > 2) {
    const r = d === 'float32' ? Math.fround : (v: number) => v;
    const delta = r(values[1]! - values[0]!);
    for (let i = 2; i < n; i++) values[i] = castValue(r(values[0]! + r(r(i) * delta)), d) as number;
  }
  return wrapNode(source(data, [n], d));
}

/** `num` evenly spaced values from start to stop (inclusive unless endpoint is false), as NumPy computes them. */
function linspace(start: number, stop: number, num = 50, options?: DTypeOption & { endpoint?: boolean }): DeferredArray {
  checkFinite('linspace', 'start', start);
  checkFinite('linspace', 'stop', stop);
  if (!Number.isInteger(num) || num < 0) throw new RangeError(`linspace: num must be a non-negative integer; got ${String(num)}`);
  const o = checkOptions('linspace', options, ['dtype', 'endpoint']);
  const endpoint = o['endpoint'] ?? true;
  if (typeof endpoint !== 'boolean') throw new TypeError(`linspace: option endpoint must be a boolean; got ${String(endpoint)}`);
  const d = o['dtype'] === undefined ? 'float64' : checkDType(o['dtype'], 'linspace: option dtype');
  const div = endpoint ? num - 1 : num;
  const delta = stop - start;
  const step = div > 0 ? delta / div : NaN;
  const y = new Float64Array(num);
  for (let i = 0; i < num; i++) {
    y[i] = (div > 0 ? (step === 0 ? (i / div) * delta : i * step) : i * delta) + start;
  }
  if (endpoint && num > 1) y[num - 1] = stop;
  // NumPy 2 floors before an integer cast, so values round toward -Inf, not toward 0.
  const data = new (dtypeInfo(d).ctor)(num);
  for (let i = 0; i < num; i++) data[i] = castValue(isInteger(d) ? Math.floor(y[i]!) : y[i]!, d);
  return wrapNode(source(data, [num], d));
}

export { wrap, array, full, zeros, ones, empty, arange, linspace };
export type { DTypeOption };
