// Array creation: wrap, array, zeros, ones, full, empty, arange, linspace.
import { checkDType, dtypeInfo } from '../ir/dtypes.js';
import type { DType } from '../ir/dtypes.js';
import { castValue, source } from '../ir/build-elementwise.js';
import { checkShape, sizeOf } from '../ir/shape.js';
import { DeferredArray, wrapNode } from './deferred-array.js';
import { describe, isArrayInput, sourceFrom } from './operand.js';
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

function dtypeOption(fn: string, options: unknown, fallback?: DType): DType | undefined {
  const o = checkOptions(fn, options, ['dtype']);
  return o['dtype'] === undefined ? fallback : checkDType(o['dtype'], `${fn}: option dtype`);
}

/** Copies an outside array (stdlib ndarray, typed array, nested list) in once; a DeferredArray is returned as is. */
function wrap(x: DeferredArray | ArrayInput | number | boolean): DeferredArray {
  if (x instanceof DeferredArray) return x;
  return array(x);
}

/** A new array from nested lists, typed arrays, ndarrays or a scalar (0-d), converted to `dtype` if given. */
function array(x: ArrayInput | number | boolean, options?: DTypeOption): DeferredArray {
  const dtype = dtypeOption('array', options);
  if (typeof x === 'number' || typeof x === 'boolean') {
    const d = dtype ?? (typeof x === 'boolean' ? 'bool' : 'float64');
    const data = new (dtypeInfo(d).ctor)(1);
    data[0] = castValue(Number(x), d);
    return wrapNode(source(data, [], d));
  }
  if (!isArrayInput(x)) {
    throw new TypeError(`array: expected a nested list, a typed array, a stdlib ndarray or a scalar; got ${describe(x)}`);
  }
  return wrapNode(sourceFrom(x as ArrayInput | NestedArray, dtype));
}

function full(shape: number | readonly number[], value: number | boolean, options?: DTypeOption): DeferredArray {
  if (typeof value !== 'number' && typeof value !== 'boolean') {
    throw new TypeError(`full: value must be a number or boolean; got ${describe(value)}`);
  }
  const s = checkShape(shape, 'full: shape');
  const d = dtypeOption('full', options, typeof value === 'boolean' ? 'bool' : 'float64')!;
  const data = new (dtypeInfo(d).ctor)(sizeOf(s));
  data.fill(castValue(Number(value), d));
  return wrapNode(source(data, s, d));
}

function zeros(shape: number | readonly number[], options?: DTypeOption): DeferredArray {
  return full(shape, 0, { dtype: dtypeOption('zeros', options, 'float64')! });
}

function ones(shape: number | readonly number[], options?: DTypeOption): DeferredArray {
  return full(shape, 1, { dtype: dtypeOption('ones', options, 'float64')! });
}

/** JavaScript has no uninitialised memory, so empty() is zeros(); no code should rely on that. */
function empty(shape: number | readonly number[], options?: DTypeOption): DeferredArray {
  return full(shape, 0, { dtype: dtypeOption('empty', options, 'float64')! });
}

function checkFinite(fn: string, name: string, v: unknown): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new TypeError(`${fn}: ${name} must be a finite number; got ${describe(v)}`);
  return v;
}

/**
 * Evenly spaced values in [start, stop). Integer arguments give int32 (NumPy's
 * default integer is int64, which this package does not have); others float64.
 */
function arange(startOrStop: number, stop?: number | DTypeOption, step?: number | DTypeOption, options?: DTypeOption): DeferredArray {
  // Options may follow any number of positional arguments.
  const args: unknown[] = [startOrStop, stop, step, options].filter((a) => a !== undefined);
  const opts = typeof args[args.length - 1] === 'object' ? args.pop() : undefined;
  const nums = args.map((a, i) => checkFinite('arange', ['start', 'stop', 'step'][i] ?? 'argument', a));
  if (nums.length === 0 || nums.length > 3) throw new TypeError('arange: expected arange(stop), arange(start, stop) or arange(start, stop, step)');
  const [start, end, inc] = nums.length === 1 ? [0, nums[0]!, 1] : [nums[0]!, nums[1]!, nums[2] ?? 1];
  if (inc === 0) throw new RangeError('arange: step must not be zero');
  const integral = nums.every(Number.isInteger);
  const d = dtypeOption('arange', opts, integral ? 'int32' : 'float64')!;
  const n = Math.max(0, Math.ceil((end - start) / inc));
  checkShape([n], 'arange: length');
  const data = new (dtypeInfo(d).ctor)(n);
  for (let i = 0; i < n; i++) data[i] = castValue(start + i * inc, d);
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
  const data = new (dtypeInfo(d).ctor)(num);
  for (let i = 0; i < num; i++) {
    const y = div > 0 ? (step === 0 ? (i / div) * delta : i * step) : i * delta;
    data[i] = castValue(y + start, d);
  }
  if (endpoint && num > 1) data[num - 1] = castValue(stop, d);
  return wrapNode(source(data, [num], d));
}

export { wrap, array, full, zeros, ones, empty, arange, linspace };
export type { DTypeOption };
