// Zarr stores (api/zarr.ts, io/zarr.ts): arrays written by zarr-python
// (format v2; scripts/numpy/gen_zarr.py) with each codec zarrita reads, every
// dtype, byte order and memory order the fixtures hold, and a v3 array, read
// bit for bit against the values NumPy saved beside them; a sum over 100
// chunks is NumPy's and reads each chunk once; bad stores and paths say so.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as da from '../index.js';
import { hexOf } from '../../test/hex-of.js';

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '../../test/fixtures/zarr');

interface Entry {
  readonly store: string;
  readonly path: string;
  readonly expected: string;
  readonly dtype: string;
  readonly shape: number[];
  readonly chunks: number[];
  readonly order: 'C' | 'F';
  readonly codec: string | null;
  readonly chunkCount: number;
  readonly numpySum?: number;
}
const manifest = JSON.parse(readFileSync(join(FIXTURES, 'manifest.json'), 'utf8')) as { arrays: Entry[] };
const NATIVE = new Set<string>(da.DTYPES);


const expected = (e: Entry, dtype?: da.DType): Promise<da.DeferredArray> =>
  da.load(join(FIXTURES, 'expected', e.expected) as `${string}.npy`, dtype ? { dtype } : undefined);

/** A folder store that counts the keys read. */
async function countingStore(folder: string): Promise<{ store: da.ZarrStore; reads: Map<string, number> }> {
  const { default: FileSystemStore } = await import('@zarrita/storage/fs');
  const inner = new FileSystemStore(folder);
  const reads = new Map<string, number>();
  return {
    reads,
    store: {
      get: (key: `/${string}`) => {
        reads.set(key, (reads.get(key) ?? 0) + 1);
        return inner.get(key);
      },
    },
  };
}

afterAll(async () => {
  await da.shutdown();
});

describe('Zarr arrays written by zarr-python', () => {
  const native = manifest.arrays.filter((e) => NATIVE.has(e.dtype));
  test.each(native.map((e) => [`${e.store}/${e.path}`, e] as const))('%s: dtype, shape and every bit, as NumPy saved them', async (_, e) => {
    const x = await da.fromZarr(join(FIXTURES, e.store), e.path);
    expect([x.dtype, x.shape]).toEqual([e.dtype, e.shape]);
    expect(await hexOf(x)).toBe(await hexOf(await expected(e)));
  });

  test('the fixtures cover Blosc, Zstd, gzip and no codec, both byte orders, Fortran order, edge chunks, 0-d, a nested path and v3', () => {
    const codecs = new Set(manifest.arrays.map((e) => e.codec));
    for (const c of ['blosc', 'zstd', 'gzip', null]) expect(codecs.has(c)).toBe(true);
    expect(manifest.arrays.some((e) => e.order === 'F')).toBe(true);
    expect(manifest.arrays.some((e) => e.shape.some((d, i) => d % e.chunks[i]! !== 0))).toBe(true);
    expect(manifest.arrays.some((e) => e.shape.length === 0)).toBe(true);
    expect(manifest.arrays.some((e) => e.path.includes('/'))).toBe(true);
    expect(manifest.arrays.some((e) => e.store === 'v3.zarr')).toBe(true);
  });

  test('a sum over 100 chunks is NumPy\'s sum of the saved values, and each chunk is read once', async () => {
    const e = manifest.arrays.find((a) => a.path === 'hundred')!;
    expect(e.chunkCount).toBe(100);
    const { store, reads } = await countingStore(join(FIXTURES, e.store));
    const x = await da.fromZarr(store, 'hundred');
    // Bit for bit the sum of the same values loaded from NumPy's .npy; NumPy's own sum adds in another order (pairwise).
    const hex = await hexOf(da.sum(x));
    expect(hex).toBe(await hexOf(da.sum(await expected(e))));
    const sum = Buffer.from(hex, 'hex').readDoubleLE(0);
    expect(Math.abs(sum - e.numpySum!)).toBeLessThanOrEqual(1e-12 * Math.abs(e.numpySum!));
    const chunks = [...reads].filter(([k]) => /\/hundred\/\d+\.\d+$/.test(k));
    expect(chunks).toHaveLength(100);
    expect(chunks.every(([, n]) => n === 1)).toBe(true);
  });

  test('int64 converts as it loads when a dtype is named, as .npy files do; without one, it is int64', async () => {
    const e = manifest.arrays.find((a) => a.dtype === 'int64')!;
    for (const dtype of ['float64', 'float32', 'int32', 'bool'] as const) {
      const x = await da.fromZarr(join(FIXTURES, e.store), e.path, { dtype });
      expect([dtype, await hexOf(x)]).toEqual([dtype, await hexOf(await expected(e, dtype))]);
    }
    const own = await da.fromZarr(join(FIXTURES, e.store), e.path);
    expect(own.dtype).toBe('int64');
    expect(await hexOf(own.astype('float64'))).toBe(await hexOf(await expected(e, 'float64')));
  });

  test('a file: URL names a folder as its path does', async () => {
    const x = await da.fromZarr(pathToFileURL(join(FIXTURES, 'v3.zarr')));
    expect(x.shape).toEqual([7, 10]);
  });
});

describe('read lazily, a range at a time', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'deferred-array-zarr-'));
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  /** A v3 array of shape (300, 70), chunks (7, 9), written by zarrita: 21,000 float64 values, more than a block. */
  async function written(): Promise<Float64Array> {
    const zarr = await import('zarrita');
    const { default: FileSystemStore } = await import('@zarrita/storage/fs');
    const values = Float64Array.from({ length: 21_000 }, (_, i) => Math.sin(i * 0.61) * 10 ** ((i % 5) - 2));
    const arr = await zarr.create(zarr.root(new FileSystemStore(dir)).resolve('big'), { shape: [300, 70], chunkShape: [7, 9], dtype: 'float64' });
    await zarr.set(arr, null, { data: values, shape: [300, 70], stride: [70, 1] });
    return values;
  }

  test('fromZarr reads no chunk; a run streams the chunks it needs, each fetched once, with the in-memory bits', async () => {
    const values = await written();
    const x = da.wrap(values).reshape([300, 70]);
    const { streamBytes } = da.configure();
    // One block (16,384 elements) a chunk: the stream cuts rows 234 and the Zarr chunks there in two.
    da.configure({ streamBytes: 2 ** 17 });
    try {
      const { store, reads } = await countingStore(dir);
      const z = await da.fromZarr(store, 'big');
      expect([z.shape, z.dtype]).toEqual([[300, 70], 'float64']);
      const chunkKeys = (): string[] => [...reads.keys()].filter((k) => /\/big\/c\//.test(k));
      expect(chunkKeys()).toEqual([]);
      const graphs: Record<string, (a: da.DeferredArray) => da.DeferredArray> = {
        sum: (a) => da.sum(a),
        elementwise: (a) => a.mul(2).add(1),
        // Does not stream: read whole, then run as in memory.
        transpose: (a) => a.T.get('::3, 1:'),
        'axis mean': (a) => da.mean(a, { axis: 0 }),
      };
      for (const [name, g] of Object.entries(graphs)) {
        reads.clear();
        expect([name, await hexOf(g(z))]).toEqual([name, await hexOf(g(x))]);
        // 43 x 8 chunks, each fetched once by the run.
        expect([name, chunkKeys().length, [...reads].filter(([k]) => /\/big\/c\//.test(k)).every(([, n]) => n === 1)]).toEqual([name, 344, true]);
      }
      // A slice reads the rows it spans: rows 100-109 lie in chunk rows 14 and 15, 16 chunks.
      reads.clear();
      expect(await hexOf(z.get('100:110, 3:').mul(2))).toBe(await hexOf(x.get('100:110, 3:').mul(2)));
      expect(chunkKeys().sort()).toEqual([14, 15].flatMap((r) => Array.from({ length: 8 }, (_, c) => `/big/c/${r}/${c}`)).sort());
    } finally {
      da.configure({ streamBytes });
    }
  });
});

describe('bad stores and paths', () => {
  test('a folder that is not there, a file, a path with no array, a group, and arguments not understood', async () => {
    await expect(da.fromZarr(join(FIXTURES, 'nowhere.zarr'))).rejects.toThrow(/fromZarr: cannot open the Zarr store '.*nowhere\.zarr' \(ENOENT/);
    await expect(da.fromZarr(join(FIXTURES, 'manifest.json'))).rejects.toThrow(/is a file, not a Zarr store/);
    await expect(da.fromZarr(join(FIXTURES, 'v2.zarr'), 'missing')).rejects.toThrow(/fromZarr: '.*v2\.zarr', array 'missing': no Zarr array there/);
    await expect(da.fromZarr(join(FIXTURES, 'v2.zarr'), 'nested')).rejects.toThrow(da.FileFormatError);
    await expect(da.fromZarr(42 as never)).rejects.toThrow(/expected a folder, a URL or a store with get\(key\)/);
    await expect(da.fromZarr(join(FIXTURES, 'v3.zarr'), '', { dtyp: 'float32' } as never)).rejects.toThrow(/unknown option 'dtyp'/);
  });

  test('a chunk that cannot be decoded: the error says a chunk could not be read', async () => {
    const { store } = await countingStore(join(FIXTURES, 'v2.zarr'));
    const broken: da.ZarrStore = {
      get: async (key) => (/\/gzip\/\d+\.\d+$/.test(key) ? new Uint8Array([1, 2, 3]) : store.get(key)),
    };
    // Chunks are read as a run needs them: the run fails, naming the array.
    const x = await da.fromZarr(broken, 'gzip');
    await expect(x.execute()).rejects.toThrow(/execute: Zarr array 'gzip' in the store given: a chunk could not be read/);
  });
});
