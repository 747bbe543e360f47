// Arrays that stay in their file (da.load with mmapMode, api/streamed.ts):
// a run over them streams the file chunk by chunk and gives, bit for bit,
// what the same graph over the array in memory gives, whatever the chunk
// size and worker count; saves stream into the file, whole or not at all;
// what a stream cannot run yet is refused with what to do instead.
import { afterAll, afterEach, beforeAll, describe, expect, test } from '@jest/globals';
import { mkdtempSync, readFileSync, readdirSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as da from '../index.js';
import { hexOf } from '../../test/hex-of.js';

let dir: string;
const { threads, streamBytes } = da.configure();
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'deferred-array-stream-'));
});
afterEach(() => {
  da.configure({ threads, streamBytes });
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await da.shutdown();
});

/** Values with some of everything: signs, magnitudes, a NaN-free spread (reductions of NaN are checked apart). */
const values = (n: number, seed: number): Float64Array => Float64Array.from({ length: n }, (_, i) => Math.sin(i * 0.37 + seed) * 10 ** ((i % 7) - 3));

async function saved(name: string, x: da.DeferredArray | Float64Array): Promise<string> {
  const path = join(dir, name);
  await da.save(path, x);
  return path;
}

/** The header of a version 1.0 .npy file of `n` float64 values, little- or big-endian. */
function npyHead(n: number, descr: '<f8' | '>f8'): Buffer {
  let header = `{'descr': '${descr}', 'fortran_order': False, 'shape': (${n},), }`;
  header += ' '.repeat(63 - ((10 + header.length) % 64)) + '\n';
  const head = Buffer.alloc(10);
  Buffer.from('\x93NUMPY', 'latin1').copy(head);
  head.writeUInt8(1, 6);
  head.writeUInt16LE(header.length, 8);
  return Buffer.concat([head, Buffer.from(header, 'latin1')]);
}

/** A version 1.0 .npy file of `f` as big-endian float64 (NumPy's '>f8'). */
function npyBigEndian(f: Float64Array): Buffer {
  const data = Buffer.alloc(f.byteLength);
  f.forEach((v, i) => data.writeDoubleBE(v, i * 8));
  return Buffer.concat([npyHead(f.length, '>f8'), data]);
}

/** A result as an array again (its bits kept). */
const wrapped = (r: da.StdNdarray): da.DeferredArray => da.wrap(r);

const mapped = (path: string, options: da.LoadOptions = {}): Promise<da.DeferredArray> => da.load(path as `${string}.npy`, { ...options, mmapMode: 'r' });
const inMemory = (path: string, options: da.LoadOptions = {}): Promise<da.DeferredArray> => da.load(path as `${string}.npy`, options);

type Graph = (x: da.DeferredArray) => da.DeferredArray;
const GRAPHS: Record<string, Graph> = {
  sum: (x) => da.sum(x),
  mean: (x) => da.mean(x.mul(2).add(1)),
  min: (x) => da.min(x),
  max: (x) => da.max(da.abs(x).sqrt()),
  prod: (x) => da.prod(x.div(1e4).add(1)),
  any: (x) => da.any(x.gt(9.9)),
  all: (x) => da.all(x.lt(1e4)),
  elementwise: (x) => da.exp(x.div(1e3)).mul(x).sub(0.5),
};

describe('a run over a mapped array is bit for bit the run over it in memory', () => {
  test.each([1, 2])('every reduction and an elementwise chain, 8 blocks a chunk (a tree of uneven chunks), on %i worker(s)', async (workers) => {
    // 2.5M values in a 2-D array: 153 blocks, streamed 8 blocks (1 MiB) at a time.
    const path = await saved('uneven.npy', da.wrap(values(2_500_000, 1)).reshape([1250, 2000]));
    da.configure({ threads: workers, streamBytes: 8 * 16384 * 8 });
    const [m, x] = [await mapped(path), await inMemory(path)];
    for (const [name, g] of Object.entries(GRAPHS)) expect([name, await hexOf(g(m))]).toEqual([name, await hexOf(g(x))]);
  }, 60_000);

  test('a 256 MiB file on the default chunk size: a sum and a mean, and the same bits on 1 and 2 workers', async () => {
    const n = 2 ** 25;
    const path = await saved('big.npy', values(n, 2));
    const x = await inMemory(path);
    const want = [await hexOf(da.sum(x)), await hexOf(da.mean(x.mul(x)))];
    for (const workers of [1, 2]) {
      da.configure({ threads: workers });
      const m = await mapped(path);
      expect([workers, await hexOf(da.sum(m)), await hexOf(da.mean(m.mul(m)))]).toEqual([workers, ...want]);
    }
  }, 120_000);

  test('NaN, dtypes the file holds (float32, int32, bool, big-endian) and those converted as they load (int64, float16)', async () => {
    da.configure({ streamBytes: 2 ** 17 });
    const n = 100_000;
    const f = values(n, 3);
    f[70_000] = NaN;
    const cases: Array<[string, da.DeferredArray | Float64Array, Graph, da.LoadOptions?]> = [
      ['nan.npy', f, (x) => da.max(x)],
      ['nan2.npy', f, (x) => da.sum(x)],
      ['f32.npy', da.wrap(f).astype('float32'), (x) => x.mul(3).add(1)],
      ['i32.npy', da.wrap(f).mul(1000).astype('int32'), (x) => da.min(x.sub(7))],
      ['bool.npy', da.wrap(f).gt(0), (x) => da.all(x)],
    ];
    for (const [name, data, g, options] of cases) {
      const path = await saved(name, data);
      expect([name, await hexOf(g(await mapped(path, options)))]).toEqual([name, await hexOf(g(await inMemory(path, options)))]);
    }
    // NumPy-written files of the byte order and dtypes the package converts.
    const fixtures = join(import.meta.dirname ?? '', '../../test/fixtures/npy');
    for (const [name, options] of [['float64-be-c.npy', {}], ['int64.npy', { dtype: 'float64' }], ['int64-be.npy', { dtype: 'int16' }], ['float16.npy', {}], ['bool-na-c.npy', {}]] as const) {
      const path = join(fixtures, name);
      const g = (x: da.DeferredArray): da.DeferredArray => x.add(x);
      expect([name, await hexOf(g(await mapped(path, options)))]).toEqual([name, await hexOf(g(await inMemory(path, options)))]);
    }
  });

  test('da.execute of several arrays over the file streams them together, in one pass, with the in-memory bits', async () => {
    const path = await saved('several.npy', values(200_000, 8));
    da.configure({ streamBytes: 2 ** 17 });
    const graphs = (x: da.DeferredArray): da.DeferredArray[] => [da.mean(x), da.max(x.abs()), x.mul(2).add(1), da.any(x.lt(-9.99))];
    const seen: number[] = [];
    const streamed = (await da.execute(graphs(await mapped(path)), { onProgress: ({ done }) => seen.push(done) })) as da.StdNdarray[];
    const inMemory_ = (await da.execute(graphs(await inMemory(path)))) as da.StdNdarray[];
    const hex = (r: da.StdNdarray): string => {
      const d = r.data as unknown as ArrayBufferView;
      return `${r.dtype}[${r.shape.join(',')}]:${Buffer.from(d.buffer, d.byteOffset, d.byteLength).toString('hex')}`;
    };
    expect(streamed.map(hex)).toEqual(inMemory_.map(hex));
    // One pass: a progress report per chunk, of the file's bytes once.
    expect(seen).toHaveLength(Math.ceil(200_000 / 16384));
    expect(seen.at(-1)).toBe(200_000 * 8);
    // out for several arrays: they are read whole and run as in memory, into the outs.
    const outs = [new Float64Array(1), new Float64Array(1), new Float64Array(200_000), null];
    const into = (await da.execute(graphs(await mapped(path)), { out: outs })) as da.StdNdarray[];
    expect(into.map((r, i) => r.data === outs[i])).toEqual([true, true, true, false]);
    expect(into.map(hex)).toEqual(inMemory_.map(hex));
    const again = graphs(await mapped(path));
    expect(() => da.executeSync(again)).toThrow(/await da\.execute\(\[\.\.\.\]\)/);
  });

  test('an empty array: the reductions\' identities, and an empty result', async () => {
    const path = await saved('empty.npy', new Float64Array(0));
    const [m, x] = [await mapped(path), await inMemory(path)];
    for (const g of [GRAPHS['sum']!, GRAPHS['prod']!, GRAPHS['any']!, GRAPHS['all']!, GRAPHS['elementwise']!]) expect(await hexOf(g(m))).toBe(await hexOf(g(x)));
  });

  test('progress: after every chunk, bytes read so far of the total, ending at the total', async () => {
    const path = await saved('progress.npy', values(300_000, 4));
    da.configure({ streamBytes: 2 ** 17 });
    const seen: Array<{ done: number; total: number }> = [];
    await da.sum(await mapped(path)).execute({ onProgress: (p) => seen.push(p) });
    expect(seen.length).toBe(Math.ceil(300_000 / 16384));
    expect(seen.every((p, i) => p.total === 300_000 * 8 && (i === 0 || p.done > seen[i - 1]!.done))).toBe(true);
    expect(seen.at(-1)!.done).toBe(300_000 * 8);
    await expect(da.sum(await mapped(path)).execute({ onProgress: 3 } as never)).rejects.toThrow(/option onProgress must be a function/);
  });
});

describe('saving a mapped array\'s results', () => {
  test('an elementwise result streams into the file, bit for bit the save of the in-memory one; a reduction saves its value', async () => {
    const path = await saved('source.npy', da.wrap(values(200_003, 5)).reshape([200_003]));
    da.configure({ streamBytes: 2 ** 17 });
    const g = GRAPHS['elementwise']!;
    await da.save(join(dir, 'streamed.npy'), g(await mapped(path)));
    await da.save(join(dir, 'in-memory.npy'), g(await inMemory(path)));
    expect(Buffer.compare(readFileSync(join(dir, 'streamed.npy')), readFileSync(join(dir, 'in-memory.npy')))).toBe(0);
    const bytes = (await da.save(null, da.mean(await mapped(path))))!;
    expect(Buffer.compare(Buffer.from(bytes), Buffer.from((await da.save(null, da.mean(await inMemory(path))))!))).toBe(0);
    expect(readdirSync(dir).filter((f) => f.includes('.partial'))).toEqual([]);
  });

  test('chunks are read straight into the heap and read there in place; the stream gives its buffers back, also when it fails', async () => {
    // 400,000 float64 (3.2 MB) in chunks of one block: 25 chunks read into two heap buffers in turn.
    const f = values(400_000, 11);
    const little = await saved('direct.npy', f);
    const big = join(dir, 'direct-big.npy');
    writeFileSync(big, npyBigEndian(f));
    da.configure({ streamBytes: 2 ** 17 });
    const run = async (path: string): Promise<{ bytes: number; hex: string }> => {
      const m = await mapped(path);
      const before = da.heapStats();
      const hex = await hexOf(da.sum(m.mul(3)));
      const after = da.heapStats();
      expect(after.views).toBe(before.views);
      expect(after.liveAllocations).toBeLessThanOrEqual(before.liveAllocations);
      return { bytes: after.allocatedBytes - before.allocatedBytes, hex };
    };
    const direct = await run(little);
    // A big-endian file is swapped in JS memory, and each chunk copied into the heap by the call: the contrast.
    const copied = await run(big);
    expect(direct.hex).toBe(copied.hex);
    expect(direct.bytes).toBeLessThan(2 * 16384 * 8 + 64 * 1024);
    expect(copied.bytes).toBeGreaterThanOrEqual(f.byteLength);
    // A run that fails mid-stream (the file cut short) waits for the read in flight and frees its buffers.
    const m = await mapped(little);
    const before = da.heapStats();
    let cut = false;
    await expect(da.sum(m).execute({
      onProgress: () => {
        if (!cut) truncateSync(little, 128 + 50_000 * 8);
        cut = true;
      },
    })).rejects.toThrow(/ended at byte/);
    const after = da.heapStats();
    expect(after.views).toBe(before.views);
    expect(after.liveAllocations).toBeLessThanOrEqual(before.liveAllocations);
  });

  test('a file cut short while it streams: the run fails saying where; cut before, the save is refused, the target untouched, no temporary left', async () => {
    const path = await saved('cut.npy', values(400_000, 6));
    const m = await mapped(path);
    da.configure({ streamBytes: 2 ** 17 });
    // Cut after the first chunk was read: a read past the new end fails, naming the byte.
    let cut = false;
    const run = da.sum(m).execute({
      onProgress: () => {
        if (!cut) truncateSync(path, 128 + 100_000 * 8);
        cut = true;
      },
    });
    await expect(run).rejects.toThrow(/ended at byte 800128, though \d+ bytes more were to be read there/);
    // Cut before the run: the file is not the one loaded, and a save over it writes nothing.
    const target = join(dir, 'target.npy');
    writeFileSync(target, 'before');
    await expect(da.save(target, m.add(1))).rejects.toThrow(/is not the file it was when loaded with mmapMode/);
    expect(readFileSync(target, 'utf8')).toBe('before');
    expect(readdirSync(dir).filter((f) => f.includes('.partial'))).toEqual([]);
  });
});

describe('mapped arrays beside others, and runs that fail', () => {
  /** A v3 Zarr array of `shape` in a folder of its own, written by zarrita, whose store fails every chunk read when `failing`. */
  async function zarrOf(name: string, shape: number[], data: Float64Array, failing = false, chunk = 256): Promise<da.DeferredArray> {
    const zarr = await import('zarrita');
    const { default: FileSystemStore } = await import('@zarrita/storage/fs');
    const folder = join(dir, name);
    const arr = await zarr.create(zarr.root(new FileSystemStore(folder)).resolve('a'), { shape, chunkShape: shape.map((d) => Math.min(d, chunk)), dtype: 'float64' });
    await zarr.set(arr, null, { data, shape, stride: shape.map((_, i) => shape.slice(i + 1).reduce((p, d) => p * d, 1)) });
    const inner = new FileSystemStore(folder);
    const store: da.ZarrStore = {
      get: async (key) => {
        if (failing && /\/c\//.test(key)) throw new Error(`chunk ${key} is unreachable`);
        return inner.get(key);
      },
    };
    return da.fromZarr(store, 'a');
  }

  test('a mark on the mapped array itself gives the record, and a save of it', async () => {
    const path = await saved('marked.npy', da.wrap(values(60, 13)).reshape([4, 3, 5]));
    const [m, x] = [await mapped(path), await inMemory(path)];
    const r = (await m.output('raw').transpose().mul(2).execute()) as unknown as Record<string, da.StdNdarray>;
    expect(Object.keys(r).sort()).toEqual(['raw', 'result']);
    expect(Buffer.from((r['raw']!.data as unknown as Float64Array).buffer).toString('hex')).toBe(await hexOf(x));
    const target = join(dir, 'marked-out.npy');
    await da.save(target, m.output('raw').mul(2));
    expect(await hexOf(await inMemory(target))).toBe(await hexOf(x.mul(2)));
  });

  test('out as a list for da.execute, one per array, null to skip', async () => {
    const path = await saved('outs.npy', values(50_000, 14));
    const [m, x] = [await mapped(path), await inMemory(path)];
    da.configure({ streamBytes: 2 ** 17 });
    const buf = new Float64Array(50_000);
    const [s, y] = (await da.execute([da.sum(m), m.mul(2)], { out: [null, buf] })) as da.StdNdarray[];
    expect(y!.data).toBe(buf);
    expect([await hexOf(wrapped(s!)), Buffer.from(buf.buffer).toString('hex')]).toEqual([await hexOf(da.sum(x)), await hexOf(x.mul(2))]);
    const one = new Float64Array(50_000);
    expect(((await da.execute([m.add(1)], { out: [one] })) as da.StdNdarray[])[0]!.data).toBe(one);
  });

  test('inside da.scope a stream holds no view per chunk', async () => {
    const path = await saved('scoped.npy', values(200_000, 15));
    const m = await mapped(path);
    da.configure({ streamBytes: 2 ** 17 });
    const before = da.heapStats().views;
    const during = await da.scope(async () => {
      await da.sum(m).execute();
      return da.heapStats().views;
    });
    expect(during).toBe(before);
  });

  test('a mask read from a mapped array is refused with what to do; a Zarr array changed since fromZarr is refused', async () => {
    const path = await saved('mask.npy', values(100, 16));
    const m = await mapped(path);
    expect(() => m.get(m.gt(0))).toThrow(/reads an array loaded with mmapMode or from fromZarr.*await mask\.execute\(\)/);
    const z = await zarrOf('changed.zarr', [4, 6], values(24, 17));
    await zarrOf('changed.zarr', [2, 12], values(24, 18));
    await expect(z.execute()).rejects.toThrow(/Zarr array 'a' in the store given is not the array it was when fromZarr opened it \(float64 of shape \(2, 12\) now, float64 of shape \(4, 6\) then\)/);
  });

  test('a read that fails closes every file the run opened, and a read still in flight ends before its heap view is freed', async () => {
    const n = 2 * 524_288;
    const path = await saved('slow.npy', new Float64Array(n).fill(-12345));
    const m = await mapped(path);
    const bad = await zarrOf('bad.zarr', [n], new Float64Array(n).fill(1), true, 2 ** 17);
    const fds = (): number => readdirSync('/proc/self/fd').length;
    const open = fds();
    for (let i = 0; i < 3; i++) await expect(da.concat([bad.get('0:10'), m.get('0:10')]).execute()).rejects.toThrow(/chunk .* is unreachable/);
    expect(fds()).toBe(open);
    // The file's reads land 300 ms late; the Zarr array's fail at once.
    const { open: openFile } = await import('node:fs/promises');
    const handle = await openFile(path);
    type Read = (buffer: Uint8Array, offset: number, length: number, position: number) => Promise<{ bytesRead: number }>;
    const proto = Object.getPrototypeOf(handle) as { read: Read };
    await handle.close();
    const read = proto.read;
    // A slow disk: the bytes are read at once, but land in the caller's memory 300 ms later.
    proto.read = async function slow(this: unknown, buffer, offset, length, position) {
      const bytes = new Uint8Array(length);
      const { bytesRead } = await read.call(this, bytes, 0, length, position);
      await new Promise((ok) => setTimeout(ok, 300));
      buffer.set(bytes.subarray(0, bytesRead), offset);
      return { bytesRead, buffer };
    };
    try {
      await expect(da.sum(m.add(bad)).execute()).rejects.toThrow(/chunk .* is unreachable/);
    } finally {
      proto.read = read;
    }
    // A heap copy made now, where a freed view would be, must not be written over by the late read.
    const ones = da.wrap(new Float64Array(524_288).fill(1));
    await ones.mul(3).execute();
    await new Promise((ok) => setTimeout(ok, 500));
    const r = (await ones.mul(3).execute()) as da.StdNdarray;
    expect((r.data as unknown as Float64Array).every((v) => v === 3)).toBe(true);
  }, 30_000);
});

describe('graphs that do not stream, and bad input', () => {
  test('are run over the mapped arrays read whole, with the in-memory bits, every option and mark as in memory', async () => {
    const path = await saved('whole.npy', da.wrap(values(6, 7)).reshape([2, 3]));
    const [m, x] = [await mapped(path), await inMemory(path)];
    const graphs: Record<string, Graph> = {
      transpose: (a) => a.transpose(),
      'axis sum': (a) => da.sum(a, { axis: 0 }),
      'sum used further': (a) => da.sum(a).add(1),
      'beside an array in memory': (a) => a.add(da.array([1, 2, 3])),
      'float32 sum': (a) => da.sum(a.astype('float32')),
      slice: (a) => a.get('1:, ::2'),
      matmul: (a) => da.matmul(a, a.T),
      '0-d': (a) => a.get('1, 2'),
    };
    for (const [name, g] of Object.entries(graphs)) expect([name, await hexOf(g(m))]).toEqual([name, await hexOf(g(x))]);
    // Marks give the record; views, and out, as in memory.
    const marked = (await m.mul(2).output('twice').add(1).execute()) as unknown as Record<string, da.StdNdarray>;
    expect(Object.keys(marked).sort()).toEqual(['result', 'twice']);
    expect(Buffer.from((marked['twice']!.data as unknown as Float64Array).buffer).toString('hex')).toBe(await hexOf(x.mul(2)));
    const v = (await m.transpose().execute({ view: true })) as da.StdNdarray;
    expect(da.heapStats().views).toBeGreaterThan(0);
    da.release(v);
    const reads: Array<[number, number]> = [];
    await da.sum(m, { axis: 1 }).execute({ onProgress: ({ done, total }) => reads.push([done, total]) });
    expect(reads).toEqual([[48, 48]]);
    expect(() => m.executeSync()).toThrow(/only execute\(\) does; await x\.execute\(\)/);
    await expect(m.execute({ out: new Float32Array(6) })).rejects.toThrow(/out must be a Float64Array of 6 element\(s\)/);
    await expect(da.load(path as `${string}.npy`, { mmapMode: 'w' as never })).rejects.toThrow(/option mmapMode must be 'r'/);
    await expect(da.load(readFileSync(path), { mmapMode: 'r' })).rejects.toThrow(/mmapMode needs a path/);
  });

  test('a save of a graph that does not stream computes it first, and writes NumPy\'s file', async () => {
    const path = await saved('save-whole.npy', da.wrap(values(12, 8)).reshape([3, 4]));
    const target = join(dir, 'save-whole-out.npy');
    await da.save(target, (await mapped(path)).transpose().mul(2).output('twice').add(1));
    expect(await hexOf(await inMemory(target))).toBe(await hexOf((await inMemory(path)).transpose().mul(2).add(1)));
  });

  test('a file written over since it was loaded; compiled functions and runtimes of their own; chunk sizes past 2^30', async () => {
    const path = await saved('changed.npy', values(50_000, 9));
    const m = await mapped(path);
    await da.save(path, values(50_000, 10));
    await expect(da.sum(m).execute()).rejects.toThrow(/is not the file it was when loaded with mmapMode .* load it again/);
    await expect(m.transpose().execute()).rejects.toThrow(/is not the file it was when loaded with mmapMode .* load it again/);
    const fresh = await mapped(path);
    const f = da.compile((a: da.DeferredArray) => a.add(1), [da.placeholder([50_000])]);
    await expect(f(fresh)).rejects.toThrow(/argument 0 reads an array loaded with mmapMode or from fromZarr/);
    expect(() => da.compile(() => fresh.add(1), [])).toThrow(/fn reads file .*changed\.npy, whose values stay where they are stored/);
    await expect(da.createRuntime().execute([da.sum(fresh)])).rejects.toThrow(/not through a Runtime of its own/);
    // Arrays written in place take arrays in memory: the trace never reads a file.
    expect(() => da.zeros([50_000]).assign(fresh)).toThrow(/assign\(\): the value reads an array loaded with mmapMode .*\(await v\.execute\(\)\)/);
    expect(() => da.ones([50_000]).iadd(fresh.mul(2))).toThrow(/iadd\(\): the value reads/);
    expect(() => fresh.iadd(1)).toThrow(/iadd\(\): this array reads/);
    expect(() => da.configure({ streamBytes: 2 ** 31 })).toThrow(/from 2\^17 .* to 2\^30/);
  });

  test('a graph that does not stream over more than 2 GiB of mapped arrays is refused, saying why and what streams; a part of them is read alone', async () => {
    // A sparse file: 2^28 + 1 float64 values the disk never holds.
    const path = join(dir, 'huge.npy');
    const head = npyHead(2 ** 28 + 1, '<f8');
    writeFileSync(path, head);
    truncateSync(path, head.length + (2 ** 28 + 1) * 8);
    const m = await mapped(path);
    await expect(m.get('::2').execute()).rejects.toThrow(
      /does not stream \(slice is not among the operations a stream runs\), and reading what it needs of its mapped arrays \(2147483656 bytes\) would take more than 2147483648 bytes.*elementwise operations/,
    );
    // Slices read only the rows they need: a few values of the sparse file, all zeros, and their bytes alone reported.
    const reads: number[] = [];
    const part = (await m.get('1000:1010').mul(2).add(1).execute({ onProgress: ({ done }) => reads.push(done) })) as da.StdNdarray;
    expect(Array.from(part.data as unknown as Float64Array)).toEqual(new Array(10).fill(1));
    expect(reads).toEqual([80]);
    const tail = (await da.execute([m.get('-2:'), m.get('-1:-4:-1')])) as da.StdNdarray[];
    expect(tail.map((t) => Array.from(t.data as unknown as Float64Array))).toEqual([[0, 0], [0, 0, 0]]);
    rmSync(path);
  });

  test('slices of a mapped array read only their rows, with the in-memory bits, marks and all', async () => {
    const path = await saved('rows.npy', da.wrap(values(600, 12)).reshape([20, 6, 5]));
    const [m, x] = [await mapped(path), await inMemory(path)];
    const graphs: Record<string, Graph> = {
      rows: (a) => a.get('3:7'),
      'rows, stepped, inner axes': (a) => a.get('15:2:-4, 1:, ::2').mul(2),
      'one row': (a) => a.get('-1, 2'),
      'two slices': (a) => a.get('2:4').add(a.get('10:12')),
      empty: (a) => a.get('5:5'),
      'a slice and the whole': (a) => a.get('0:2').sum().add(da.sum(a, { axis: 0 }).get('0, 0')),
    };
    for (const [name, g] of Object.entries(graphs)) expect([name, await hexOf(g(m))]).toEqual([name, await hexOf(g(x))]);
    const marked = (await m.get('4:9').output('rows').mul(3).execute()) as unknown as Record<string, da.StdNdarray>;
    expect(Buffer.from((marked['rows']!.data as unknown as Float64Array).buffer).toString('hex')).toBe(await hexOf(x.get('4:9')));
  });

  test('out: the result computed into it, and an ndarray over it returned, as in memory', async () => {
    const path = await saved('out.npy', values(40_000, 11));
    const out = new Float64Array(40_000);
    const r = (await (await mapped(path)).mul(3).execute({ out })) as da.StdNdarray;
    expect(r.data).toBe(out);
    expect(r.shape).toEqual([40_000]);
    expect(await hexOf((await inMemory(path)).mul(3))).toBe(Buffer.from(out.buffer).toString('hex'));
  });

  test('files mmapMode does not take: Fortran order, archives, a file shorter than its header says; int64 streams as itself', async () => {
    const fixtures = join(import.meta.dirname ?? '', '../../test/fixtures/npy');
    await expect(mapped(join(fixtures, 'float64-le-f.npy'))).rejects.toThrow(/is in Fortran order; mmapMode streams C-ordered files/);
    await expect(mapped(join(fixtures, 'pair.npz'))).rejects.toThrow(/is an \.npz archive; mmapMode maps \.npy files/);
    expect((await mapped(join(fixtures, 'int64.npy'))).dtype).toBe('int64');
    const short = join(dir, 'short.npy');
    writeFileSync(short, readFileSync(join(fixtures, 'float64-le-c.npy')).subarray(0, 200));
    await expect(mapped(short)).rejects.toThrow(/is truncated: its header says 24 values of 8 bytes \(192 bytes\) from byte 128, but the file ends at byte 200/);
  });
});
