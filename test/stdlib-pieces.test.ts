// The built @stdlib pieces (dist/stdlib-pieces.cjs; the browser's copy, made
// the same way, runs in the Chromium suite), which the build makes without
// @stdlib's complex typed arrays: the ndarray
// constructor still makes every dtype the package hands out and reads them
// back, and a complex array, which nothing in the package makes, fails with
// a message that says why. The tests of src/ load the unbundled pieces, so
// this is where the bundles themselves are run.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = join(dirname(fileURLToPath(import.meta.url)), '../packages/deferred-array/dist');
const require = createRequire(import.meta.url);

interface Ndarray { readonly dtype: string; get(...idx: number[]): unknown; toString(): string; toJSON(): unknown }
interface Pieces {
  ndarray: new (dtype: string, data: unknown, shape: number[], strides: number[], offset: number, order: string) => Ndarray;
  empty: (shape: number[], options: { dtype: string }) => Ndarray;
  reinterpretBoolean: (x: Ndarray) => Ndarray;
}

const ARRAYS: ReadonlyArray<readonly [string, () => unknown, unknown]> = [
  ['float64', () => Float64Array.of(1.5, -2), -2],
  ['float32', () => Float32Array.of(1.5, -2), -2],
  ['int32', () => Int32Array.of(7, -8), -8],
  ['uint32', () => Uint32Array.of(7, 8), 8],
  ['int16', () => Int16Array.of(7, -8), -8],
  ['uint16', () => Uint16Array.of(7, 8), 8],
  ['int8', () => Int8Array.of(7, -8), -8],
  ['uint8', () => Uint8Array.of(7, 8), 8],
  ['generic', () => BigInt64Array.of(1n, 9007199254740993n), 9007199254740993n],
];

describe('the built @stdlib pieces', () => {
  const pieces = require(join(dist, 'stdlib-pieces.cjs')) as Pieces;

  test.each(ARRAYS)('an ndarray of %s: made, read, printed', (dtype, make, second) => {
    const x = new pieces.ndarray(dtype, make(), [2], [1], 0, 'row-major');
    expect(x.dtype).toBe(dtype);
    expect(x.get(1)).toBe(second);
    expect(x.toString()).toContain('ndarray(');
    expect(x.toJSON()).toMatchObject({ dtype, shape: [2] });
  });

  test('booleans: empty() and the reinterpretation the package reads them through', () => {
    const b = pieces.empty([3], { dtype: 'bool' });
    expect(b.dtype).toBe('bool');
    expect(pieces.reinterpretBoolean(b).dtype).toBe('uint8');
  });

  test('complex dtypes are left out, and say so', () => {
    expect(() => pieces.empty([2], { dtype: 'complex128' })).toThrow(/complex128 arrays are left out of deferred-array, which has no complex dtype/);
  });
});
