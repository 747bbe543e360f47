/* eslint-disable no-sparse-arrays -- sparse lists' holes are what several cases here are about */
// Issue 22's defects, found by trying to break the package: names that
// collide with Object.prototype's, sparse lists, and error messages that
// printed NaN, Infinity and -0 as JSON does (null, null, 0).
import * as da from '../index.js';
import { formatValue } from '../ir/format.js';

/** Every property a plain object inherits, __proto__ and constructor among them. */
const INHERITED = Object.getOwnPropertyNames(Object.prototype);

const values = (x: unknown): number[] => Array.from((x as da.StdNdarray).data as Float64Array);

describe('output() names that plain objects already have', () => {
  test('the list covers what matters', () => {
    expect(INHERITED).toEqual(expect.arrayContaining(['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf']));
  });

  test.each(INHERITED)('output(%j) is an own key of the record, beside result', async (name) => {
    const make = (): da.DeferredArray => da.arange(3).add(1).output(name).mul(2);
    for (const r of [make().executeSync(), await make().execute()] as unknown as Array<Record<string, da.StdNdarray>>) {
      expect(Object.getPrototypeOf(r)).toBe(Object.prototype);
      expect(Object.keys(r)).toEqual([name, 'result']);
      expect(Object.getOwnPropertyDescriptor(r, name)?.value).toBeDefined();
      expect(values(Object.getOwnPropertyDescriptor(r, name)!.value)).toEqual([1, 2, 3]);
      expect(values(r['result'])).toEqual([2, 4, 6]);
    }
  });

  test('an out record may target such a name (built with a computed key)', async () => {
    const target = new Int32Array(3);
    const out = { ['__proto__']: target };
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    const r = (await da.arange(3).add(1).output('__proto__').mul(2).execute({ out })) as unknown as Record<string, da.StdNdarray>;
    expect(Array.from(target)).toEqual([1, 2, 3]);
    expect(Object.keys(r)).toEqual(['__proto__', 'result']);
  });

  test('result and output_<n> stay reserved', () => {
    expect(() => da.ones([1]).output('result')).toThrow(da.OutputNameError);
    expect(() => da.ones([1]).output('output_0')).toThrow(da.OutputNameError);
  });
});

describe('sparse lists', () => {
  test.each([
    ['a hole in a flat list', [1, , 3], /array\[1\] is a hole in a sparse array/],
    ['a leading hole', [, 1], /array\[0\] is a hole/],
    ['a hole between rows', [[1, 2], , [3, 4]], /array\[1\] is a hole/],
    ['a hole inside a row', [[1, 2], [3, , 5].slice(0, 2)], /array\[1\]\[1\] is a hole/],
    ['a list of holes', new Array(3), /array\[0\] is a hole/],
  ] as Array<[string, unknown[], RegExp]>)('%s is a TypeError naming the index', (_, list, message) => {
    expect(() => da.array(list as number[])).toThrow(TypeError);
    expect(() => da.array(list as number[])).toThrow(message);
  });

  test('undefined written out is still refused as not a number, and a dense list is fine', () => {
    expect(() => da.array([1, undefined as unknown as number])).toThrow(/array\[1\] must be a number, bigint or boolean; got undefined/);
    expect(values(da.array([1, 2, 3]).executeSync())).toEqual([1, 2, 3]);
  });
});

describe('error messages print numbers as they are', () => {
  test.each([
    ['zeros([NaN])', () => da.zeros([NaN]), 'got [NaN]'],
    ['zeros([2, Infinity])', () => da.zeros([2, Infinity]), 'got [2, Infinity]'],
    ['ones([-1])', () => da.ones([-1]), 'got [-1]'],
    ['reshape([NaN, -1])', () => da.ones([4]).reshape([NaN, -1]), 'got [NaN, -1]'],
    ['transpose([0, -0, 1])', () => da.ones([1, 1, 1]).transpose([0, -0, 1]), 'axes [0, -0, 1] repeat an axis'],
    ['transpose([0, NaN])', () => da.ones([1, 1]).transpose([0, NaN]), 'got NaN'],
    ['sum over [Infinity]', () => da.ones([2]).sum({ axis: [Infinity] as unknown as number[] }), 'Infinity'],
  ] as Array<[string, () => unknown, string]>)('%s', (_, f, text) => {
    expect(f).toThrow(text);
    expect(f).not.toThrow(/null/);
  });

  test('formatValue', () => {
    expect(formatValue([NaN, Infinity, -Infinity, -0, 0, 1.5])).toBe('[NaN, Infinity, -Infinity, -0, 0, 1.5]');
    expect(formatValue({ a: -0, 'b c': [undefined, null] })).toBe('{ a: -0, "b c": [undefined, null] }');
    expect(formatValue([1, , 3])).toBe('[1, <hole>, 3]');
    expect(formatValue('x"y')).toBe('"x\\"y"');
    expect(formatValue(Array.from({ length: 20 }, (_, i) => i))).toMatch(/15, … 4 more\]$/);
    expect(formatValue(new Float32Array(4))).toBe('Float32Array(4)');
    expect(formatValue([[[[1]]]])).toBe('[[[[…]]]]');
    expect(formatValue(3n)).toBe('3n');
    expect(formatValue(new Map())).toBe('Map');
    expect(formatValue(Object.create(null))).toBe('{}');
  });
});
