// .npy and .npz in and out (api/load-save.ts, io/): every file NumPy wrote
// for the fixtures (scripts/numpy/gen_npy.py) reads bit for bit, whatever
// its dtype, byte order, memory order or format version; what the package
// writes is byte for byte what np.save wrote for the same array, and NumPy
// reads it back (when python3 here has NumPy); every bad input gets an error
// saying what is wrong, and a failed save leaves nothing behind.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as da from '../index.js';
import { hexOf } from '../../test/hex-of.js';

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '../../test/fixtures/npy');

interface Entry {
  readonly file: string;
  readonly dtype?: string;
  readonly shape?: number[];
  readonly hex?: string;
  readonly order?: 'C' | 'F';
  readonly version?: number[] | null;
  readonly refused?: string;
  readonly converted?: Record<string, string>;
  readonly members?: Record<string, { dtype: string; shape: number[]; hex: string }>;
}
const manifest = JSON.parse(readFileSync(join(FIXTURES, 'manifest.json'), 'utf8')) as { numpy: string; files: Entry[] };
const fixture = (file: string): string => join(FIXTURES, file);
const NATIVE = new Set<string>(da.DTYPES);
const byFile = new Map(manifest.files.map((e) => [e.file, e]));


let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'deferred-array-npy-'));
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await da.shutdown();
});

describe('reading what NumPy wrote', () => {
  const arrays = manifest.files.filter((e) => e.hex !== undefined && !e.refused && NATIVE.has(e.dtype!));
  test.each(arrays.map((e) => [e.file, e] as const))('%s: dtype, shape and every bit', async (_, e) => {
    const x = (await da.load(fixture(e.file))) as da.DeferredArray;
    expect([x.dtype, x.shape]).toEqual([e.dtype, e.shape]);
    expect(await hexOf(x)).toBe(e.hex);
  });

  test('the fixtures cover every dtype in both byte orders and both memory orders, 0-d, empty and format versions 2.0 and 3.0', () => {
    // int64 and uint64 have fixtures of their own (int64.npy, int64-be.npy, uint64.npy), made when they loaded only converted.
    expect(['int64.npy', 'int64-be.npy', 'uint64.npy'].every((f) => byFile.has(f))).toBe(true);
    for (const d of da.DTYPES.filter((t) => t !== 'int64' && t !== 'uint64')) {
      const one = d === 'int8' || d === 'uint8' || d === 'bool';
      for (const f of one ? [`${d}-na-c.npy`, `${d}-na-f.npy`] : [`${d}-le-c.npy`, `${d}-be-c.npy`, `${d}-le-f.npy`, `${d}-be-f.npy`]) expect(byFile.has(f)).toBe(true);
      expect(byFile.get(`${d}-0d.npy`)?.shape).toEqual([]);
      expect(byFile.get(`${d}-empty.npy`)?.shape).toEqual([0, 3]);
    }
    expect(arrays.map((e) => e.version?.[0] ?? 1).sort()).toEqual(expect.arrayContaining([1, 2, 3]));
  });

  test('int64, uint64 and float16 convert as they load, as NumPy astype converts them, bit for bit', async () => {
    for (const e of manifest.files.filter((f) => f.converted)) {
      const targets = Object.entries(e.converted!).filter(([t]) => !e.file.startsWith('float16') || ['float64', 'float32', 'bool'].includes(t));
      for (const [dtype, hex] of targets) {
        const x = (await da.load(fixture(e.file), { dtype: dtype as da.DType })) as da.DeferredArray;
        expect([e.file, dtype, x.dtype, x.shape]).toEqual([e.file, dtype, dtype, e.shape]);
        expect([e.file, dtype, await hexOf(x)]).toEqual([e.file, dtype, hex]);
      }
    }
  });

  test('without a dtype, int64 and uint64 files load as themselves, in bigint arrays', async () => {
    for (const [file, ctor] of [['int64.npy', BigInt64Array], ['int64-be.npy', BigInt64Array], ['uint64.npy', BigUint64Array]] as const) {
      const x = (await da.load(fixture(file))) as da.DeferredArray;
      expect([file, x.dtype]).toEqual([file, byFile.get(file)!.dtype]);
      expect((await x.execute() as da.StdNdarray).data).toBeInstanceOf(ctor);
    }
  });

  test('a native dtype converts too, lazily, through astype', async () => {
    const x = (await da.load(fixture('int16-le-c.npy'), { dtype: 'float64' })) as da.DeferredArray;
    const want = (await ((await da.load(fixture('int16-le-c.npy'))) as da.DeferredArray).astype('float64').execute()).data;
    expect(x.dtype).toBe('float64');
    expect(Array.from((await x.execute()).data as Float64Array)).toEqual(Array.from(want as Float64Array));
  });

  test('an .npz from the caller\'s bytes: its members, read later, come from a copy', async () => {
    const bytes = new Uint8Array(readFileSync(fixture('pair.npz')));
    const z = (await da.load(bytes)) as da.NpzRecord;
    bytes.fill(0);
    expect(await hexOf(z.get('a'))).toBe(byFile.get('pair.npz')!.members!['a']!.hex);
  });

  test('float16 loads as float32 with no dtype named, every bit kept', async () => {
    const x = (await da.load(fixture('float16.npy'))) as da.DeferredArray;
    expect(x.dtype).toBe('float32');
    expect(await hexOf(x)).toBe(byFile.get('float16.npy')!.converted!['float32']);
  });

  test('bytes from an ArrayBuffer, a Uint8Array at an odd offset, a Blob and a Response read alike; the caller\'s bytes are copied, never kept', async () => {
    const file = readFileSync(fixture('float64-be-f.npy'));
    const want = byFile.get('float64-be-f.npy')!.hex;
    const odd = new Uint8Array(file.length + 3);
    odd.set(file, 3);
    const view = odd.subarray(3);
    const sources = [file.buffer.slice(file.byteOffset, file.byteOffset + file.length), view, new Blob([file]), new Response(file)];
    for (const s of sources) expect(await hexOf((await da.load(s)) as da.DeferredArray)).toBe(want);
    // Little-endian and aligned: the readers could view the bytes in place, but they are the caller's.
    const le = new Uint8Array(readFileSync(fixture('float64-le-c.npy')));
    const x = (await da.load(le)) as da.DeferredArray;
    le.fill(0xff, le.length - 8 * 24);
    expect(await hexOf(x)).toBe(byFile.get('float64-le-c.npy')!.hex);
  });

  test('booleans stored as other non-zero bytes read as true (1), as NumPy reads them', async () => {
    const file = new Uint8Array(readFileSync(fixture('bool-na-1d.npy')));
    const at = file.length - 7;
    file.set([0, 2, 255, 1, 0, 7, 0], at);
    expect(await hexOf((await da.load(file)) as da.DeferredArray)).toBe('00010101000100');
  });
});

describe('.npz archives', () => {
  test.each(['pair.npz', 'pair-compressed.npz', 'positional.npz'])('%s: every member by name, read when used, bit for bit', async (file) => {
    const z = await da.load(fixture(file) as `${string}.npz`);
    const members = byFile.get(file)!.members!;
    expect([...z.files]).toEqual(Object.keys(members));
    expect(Object.keys(z)).toEqual(Object.keys(members));
    for (const [name, m] of Object.entries(members)) {
      expect([name, z[name]!.dtype, z[name]!.shape]).toEqual([name, m.dtype, m.shape]);
      expect(await hexOf(z.get(name))).toBe(m.hex);
      // Read once, then kept.
      expect(z[name]).toBe(z[name]);
    }
    // Destructured like any record.
    const { [Object.keys(members)[0]!]: first } = z;
    expect(first).toBe(z.get(Object.keys(members)[0]!));
  });

  test('a member that is not there: the error names those that are', async () => {
    const z = await da.load(fixture('pair.npz') as `${string}.npz`);
    expect(() => z.get('d')).toThrow(/has no array 'd'; its arrays are 'a', 'b', 'c'/);
    expect(Object.isFrozen(z)).toBe(true);
  });

  test('savez and savezCompressed write archives load reads back bit for bit; a list names its members arr_0, arr_1', async () => {
    const a = (await da.load(fixture('float64-be-f.npy'))) as da.DeferredArray;
    const b = (await da.load(fixture('bool-na-c.npy'))) as da.DeferredArray;
    for (const [save, expectStored] of [[da.savez, true], [da.savezCompressed, false]] as const) {
      const bytes = (await save(null, { a, flags: b.astype('int8') }))!;
      const z = await da.load(bytes);
      if (!(z instanceof da.NpzFile)) throw new Error('expected an archive');
      const r = z as da.NpzRecord;
      expect(r.files).toEqual(['a', 'flags']);
      expect(await hexOf(r.a!)).toBe(byFile.get('float64-be-f.npy')!.hex);
      expect(r.flags!.dtype).toBe('int8');
      // Stored archives hold the .npy bytes as they are; deflated ones do not.
      const npy = (await da.save(null, a))!;
      expect(Buffer.from(bytes).includes(Buffer.from(npy))).toBe(expectStored);
    }
    const positional = (await da.load((await da.savez(null, [a, b]))!)) as da.NpzRecord;
    expect(positional.files).toEqual(['arr_0', 'arr_1']);
  });

  test('an archive under a path: .npz added where the name lacks it, as np.savez adds it', async () => {
    await da.savez(join(dir, 'added'), { x: da.arange(5) });
    expect(existsSync(join(dir, 'added.npz'))).toBe(true);
    const z = await da.load(join(dir, 'added.npz') as `${string}.npz`);
    expect(Array.from((await z.x!.execute()).data as Float64Array)).toEqual([0, 1, 2, 3, 4]);
  });
});

describe('writing .npy', () => {
  // The package writes C order, little-endian: for a file NumPy wrote otherwise, the bytes to match are those of
  // its little-endian C-order twin (NumPy writes a Fortran-ordered array in Fortran order, which the package does not).
  const twinOf = (file: string): string => file.replace('-be-', '-le-').replace(/-f\.npy$/, '-c.npy').replace(/-be\.npy$/, '.npy');
  const written = manifest.files.filter((e) => e.hex !== undefined && !e.refused && NATIVE.has(e.dtype!) && !e.version && byFile.has(twinOf(e.file)));
  test.each(written.map((e) => [e.file, e] as const))('%s: the bytes np.save wrote for the same array, whatever order it came in', async (_, e) => {
    const x = (await da.load(fixture(e.file))) as da.DeferredArray;
    expect(Buffer.compare(Buffer.from((await da.save(null, x))!), readFileSync(fixture(twinOf(e.file))))).toBe(0);
  });

  test('float32 signalling NaNs keep their bits through transposed and reversed views, as NumPy copies keep them', async () => {
    const bits = new Uint32Array([0xffa00001, 0x7f800001, 1, 2, 3, 4]);
    const x = da.wrap(new Float32Array(bits.buffer));
    for (const [view, order] of [[x.reshape([2, 3]).transpose(), [0, 3, 1, 4, 2, 5]], [x.get('::-1'), [5, 4, 3, 2, 1, 0]]] as const) {
      for (const data of [(await view.execute()).data, view.executeSync().data]) {
        expect(Array.from(new Uint32Array((data as Float32Array).slice().buffer))).toEqual(order.map((i) => bits[i]));
      }
    }
  });

  test('an unexecuted graph is computed into the file; a path gets .npy added where it lacks it; arrays wrapped as da.wrap takes them', async () => {
    const x = da.arange(6).reshape([2, 3]).mul(2).add(1);
    await da.save(join(dir, 'graph'), x);
    const y = (await da.load(join(dir, 'graph.npy') as `${string}.npy`));
    expect(y.shape).toEqual([2, 3]);
    expect(Array.from((await y.execute()).data as Float64Array)).toEqual([1, 3, 5, 7, 9, 11]);
    await da.save(join(dir, 'typed.npy'), new Int16Array([1, -2, 3]));
    expect(Array.from((await (await da.load(join(dir, 'typed.npy') as `${string}.npy`)).execute()).data as Int16Array)).toEqual([1, -2, 3]);
    expect(readdirSync(dir).filter((f) => f.includes('.partial'))).toEqual([]);
  });

  test('a graph with arrays marked by output() saves its own value, to a path and as bytes; the heap keeps no view after', async () => {
    const x = da.arange(4).mul(2).output('twice').add(1);
    await da.save(join(dir, 'marked.npy'), x);
    const bytes = (await da.save(null, x))!;
    for (const y of [await da.load(join(dir, 'marked.npy') as `${string}.npy`), (await da.load(bytes)) as da.DeferredArray]) {
      expect(Array.from((await y.execute()).data as Float64Array)).toEqual([1, 3, 5, 7]);
    }
    expect(da.heapStats().views).toBe(0);
  });

  test('a save that fails leaves the target as it was and no temporary beside it', async () => {
    const target = join(dir, 'kept.npy');
    await da.save(target, da.arange(3));
    const before = readFileSync(target);
    // The array fails to compute (an integer division by zero, raised): nothing is written.
    const { errors } = da.configure();
    da.configure({ errors: { ...errors, divide: 'raise' } });
    try {
      await expect(da.save(target, da.array([1, 2, 3], { dtype: 'int32' }).floorDivide(0))).rejects.toThrow(/divide/);
    } finally {
      da.configure({ errors });
    }
    // The write itself fails (the target is a directory that is not empty): the temporary is removed.
    const blocked = join(dir, 'blocked.npy');
    mkdirSync(blocked);
    writeFileSync(join(blocked, 'inside'), 'x');
    await expect(da.save(blocked, da.arange(3))).rejects.toThrow(/save: cannot write '.*blocked\.npy'/);
    expect(Buffer.compare(readFileSync(target), before)).toBe(0);
    expect(readdirSync(dir).filter((f) => f.includes('.partial'))).toEqual([]);
  });
});

describe('bad input', () => {
  const file = (name: string): Uint8Array => new Uint8Array(readFileSync(fixture(name)));

  test('a missing file: the path and the reason, with Node\'s code', async () => {
    const e = await da.load(join(dir, 'nowhere.npy') as `${string}.npy`).catch((x: unknown) => x as da.DeferredArrayError);
    expect(e).toBeInstanceOf(da.DeferredArrayError);
    expect((e as da.DeferredArrayError).code).toBe('ENOENT');
    expect((e as Error).message).toMatch(/load: cannot read '.*nowhere\.npy' \(ENOENT: no such file or directory\)/);
  });

  test('a wrong magic string, an unknown version, and an empty file', async () => {
    const f = file('float64-le-c.npy');
    f[1] = 0x4f;
    await expect(da.load(f)).rejects.toThrow(/neither an \.npy file .* nor an \.npz archive \(PK\); it starts with 93 4f 55 4d 50 59/);
    const v = file('float64-le-c.npy');
    v[6] = 4;
    await expect(da.load(v)).rejects.toThrow(/format version 4\.0; the versions NumPy writes, 1\.0, 2\.0 and 3\.0, are read/);
    await expect(da.load(new Uint8Array(0))).rejects.toThrow(/it starts with nothing \(it is empty\)/);
    await expect(da.load(new Uint8Array(0) as unknown as `${string}.npy`)).rejects.toThrow(da.FileFormatError);
  });

  test('a header that lies about the size, and files cut short in the header or in the data: the byte where they end', async () => {
    const f = file('float64-le-c.npy');
    // Shape (2, 3, 4) claimed as (2, 3, 5): six values more than the file has.
    const text = Buffer.from(f).toString('latin1').replace('(2, 3, 4)', '(2, 3, 5)');
    await expect(da.load(Buffer.from(text, 'latin1'))).rejects.toThrow(/truncated: its header says 30 values of 8 bytes \(240 bytes\) from byte 128, but the file ends at byte 320/);
    await expect(da.load(f.subarray(0, f.length - 1))).rejects.toThrow(/truncated: .* but the file ends at byte 319/);
    await expect(da.load(f.subarray(0, 50))).rejects.toThrow(/truncated: its \.npy header says it is 118 bytes long, but the file ends at byte 50, inside it/);
    await expect(da.load(f.subarray(0, 8))).rejects.toThrow(/truncated: it ends inside the \.npy header, at byte 8/);
  });

  test('a header that is not the dict NumPy writes', async () => {
    const f = Buffer.from(file('float64-le-c.npy')).toString('latin1');
    const withHeader = (from: string, to: string): Buffer => Buffer.from(f.replace(from, to.padEnd(from.length)), 'latin1');
    await expect(da.load(withHeader("'fortran_order': False", "'fortran_order': 0"))).rejects.toThrow(/bad \.npy header \(fortran_order is not True or False\)/);
    await expect(da.load(withHeader("'shape'", "'shap'"))).rejects.toThrow(/its keys are 'descr', 'fortran_order', 'shap', not 'descr', 'fortran_order' and 'shape'/);
    await expect(da.load(withHeader('(2, 3, 4)', '(2, -3, 4)'))).rejects.toThrow(/shape is not a tuple of non-negative integers/);
    await expect(da.load(withHeader('{', '['))).rejects.toThrow(/header that is not a Python literal/);
  });

  test('dtypes the package does not read are named, with those it does', async () => {
    for (const e of manifest.files.filter((f) => f.refused)) {
      const err = await da.load(fixture(e.file)).catch((x: unknown) => x as Error);
      expect(err).toBeInstanceOf(da.FileFormatError);
      expect((err as Error).message).toContain(e.refused);
      expect((err as Error).message).toContain('it reads float64, float32, int64, uint64, int32, uint32, int16, uint16, int8, uint8, bool; and float16 as float32');
    }
  });

  test('a path that says the other kind of file; options and sources that are not understood; mmapMode without a path', async () => {
    const npy = join(dir, 'really-npy.npz');
    writeFileSync(npy, readFileSync(fixture('float64-0d.npy')));
    await expect(da.load(npy as `${string}.npz`)).rejects.toThrow(/is an \.npy file \(one array\), though named \.npz/);
    const npz = join(dir, 'really-npz.npy');
    writeFileSync(npz, readFileSync(fixture('pair.npz')));
    await expect(da.load(npz as `${string}.npy`)).rejects.toThrow(/is an \.npz archive \(a zip of arrays\), though named \.npy/);
    await expect(da.load(readFileSync(fixture('float64-0d.npy')), { mmapMode: 'r' })).rejects.toThrow(/mmapMode needs a path/);
    await expect(da.load(fixture('float64-0d.npy'), { dtyp: 'float32' } as never)).rejects.toThrow(/unknown option 'dtyp' \(expected dtype, mmapMode\)/);
    await expect(da.load(fixture('float64-0d.npy'), { dtype: 'float16' as never })).rejects.toThrow(/option dtype must be one of/);
    await expect(da.load(42 as never)).rejects.toThrow(/load: expected a path, a file: URL, a Response, a Blob, an ArrayBuffer or a Uint8Array; got/);
    await expect(da.load(new Response('nope', { status: 404, statusText: 'Not Found' }))).rejects.toThrow(/answered 404 Not Found/);
    await expect(da.save(null, 'x' as never)).rejects.toThrow(/save: the array must be a DeferredArray or an array da.wrap takes/);
    await expect(da.savez(null, { 'a/b': da.arange(2) })).rejects.toThrow(/cannot name a member/);
    await expect(da.save(42 as never, da.arange(2))).rejects.toThrow(/the target must be a path, a file: URL, or null/);
  });

  test('a broken archive', async () => {
    const z = file('pair.npz');
    await expect(da.load(z.subarray(0, 100))).rejects.toThrow(/is not a readable \.npz \(zip\) archive/);
  });
});

/** NumPy reading what the package wrote, where python3 here has NumPy. */
const python = spawnSync('python3', ['-c', 'import numpy'], { encoding: 'utf8' });
const hasNumpy = python.status === 0;
if (!hasNumpy) {
  console.warn('\n*** npy.test.ts: python3 with NumPy is not here, so NumPy does not read back the files the package writes (only the committed fixtures are checked). ***\n');
}

describe('NumPy reads back what the package writes', () => {
  (hasNumpy ? test : test.skip)('every dtype, 0-d, empty and archives: np.load gives the same dtype, shape and bits', async () => {
    const expected: Record<string, { dtype: string; shape: number[]; hex: string }> = {};
    for (const e of manifest.files.filter((f) => f.hex !== undefined && !f.refused && NATIVE.has(f.dtype!))) {
      const name = `ours-${e.file}`;
      await da.save(join(dir, name), (await da.load(fixture(e.file))) as da.DeferredArray);
      expected[name] = { dtype: e.dtype!, shape: e.shape!, hex: e.hex! };
    }
    const pair = byFile.get('pair.npz')!.members!;
    const src = (await da.load(fixture('pair.npz'))) as da.NpzRecord;
    await da.savez(join(dir, 'ours-pair.npz'), { a: src.a!, b: src.b!, c: src.c! });
    await da.savezCompressed(join(dir, 'ours-pair-compressed.npz'), { a: src.a!, b: src.b!, c: src.c! });
    const script = join(dirname(fileURLToPath(import.meta.url)), '../../../../scripts/numpy/read_back.py');
    const run = spawnSync('python3', [script, dir], { input: JSON.stringify({ arrays: expected, archives: { 'ours-pair.npz': pair, 'ours-pair-compressed.npz': pair } }), encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.stdout.trim()).toBe(`read ${Object.keys(expected).length} arrays and 2 archives: all equal`);
  });
});
