// NumPy's files in and out: da.load reads .npy (an array) and .npz (a record
// of arrays, read as used) from a path in Node, or from bytes anywhere;
// da.save, da.savez and da.savezCompressed write them, to a path in Node
// (whole or not at all) or as bytes. What a file holds decides what it is,
// as np.load decides; a path's suffix only narrows the type TypeScript sees,
// so a path that says the other kind is an error rather than a surprise.
import { source } from '../ir/build-elementwise.js';
import { checkDType, dtypeInfo } from '../ir/dtypes.js';
import type { DType, TypedArray } from '../ir/dtypes.js';
import { markOf } from '../ir/marks.js';
import { topoOrder } from '../ir/node.js';
import { contiguousStrides } from '../ir/shape.js';
import type { StdNdarray } from '../util/stdlib.js';
import { FileFormatError, NotSupportedError } from '../ir/errors.js';
import { hasFileSystem, openParts, pathOf, readHead, readPath, writePath } from '../io/files.js';
import { decodeData } from '../io/npy-data.js';
import { fileType } from '../io/npy-dtypes.js';
import { isNpy, readNpyHeader } from '../io/npy-header.js';
import { mappedNode, readsMapped } from '../ir/mapped.js';
import { npyFile, npyHeader, readNpy } from '../io/npy.js';
import { npySource } from '../io/npy-mapped.js';
import type { NpyValues, ReadNpy } from '../io/npy.js';
import { isZip, npzMember, npzMembers, zipNpz } from '../io/npz.js';
import { wrap } from './creation.js';
import { DeferredArray, nodeOf, wrapNode } from './deferred-array.js';
import { NpzFile } from './npz-file.js';
import type { NpzRecord } from './npz-file.js';
import { release } from './results.js';
import { runStream, streamPlanIfAny } from './streamed.js';
import type { StreamPlan } from './streamed.js';
import { describe, isArrayInput } from './operand.js';
import type { ArrayInput } from './operand.js';

/** Where load() reads from: a path or file: URL (Node), or the bytes: a fetch Response, a Blob or File, an ArrayBuffer or a view of one. */
type LoadSource = string | URL | ArrayBuffer | ArrayBufferView | Blob | Response;

interface LoadOptions {
  /** Convert to this dtype as it loads (int64 and uint64 files convert to a narrower one without a bigint per value; float16 loads as float32). */
  readonly dtype?: DType;
  /**
   * NumPy's memory map, read-only: the values stay in the file and every run
   * over the array streams them through the heap a chunk at a time (Node, C
   * order, .npy). execute() of elementwise work and whole-array reductions,
   * and save() of elementwise work, which writes a chunk at a time.
   */
  readonly mmapMode?: 'r';
}

/** Where save() writes: a path or file: URL in Node; null (or, where there is no file system, anything) for the bytes. */
type SaveTarget = string | URL | null;

/** What save() takes: an array, computed if it is not yet, or anything da.wrap takes. */
type Savable = DeferredArray | ArrayInput;

const OPTIONS = ['dtype', 'mmapMode'];

function loadOptions(options: unknown): LoadOptions {
  if (options === undefined) return {};
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new TypeError(`load: options must be an object like { dtype }; got ${describe(options)}`);
  }
  for (const key of Object.keys(options)) {
    if (!OPTIONS.includes(key)) throw new TypeError(`load: unknown option '${key}' (expected ${OPTIONS.join(', ')})`);
  }
  const o = options as Record<string, unknown>;
  if (o['mmapMode'] !== undefined && o['mmapMode'] !== 'r') {
    throw new TypeError(`load: option mmapMode must be 'r' (the data stays in the file, read as runs need it); got ${describe(o['mmapMode'])}`);
  }
  return {
    ...(o['dtype'] === undefined ? {} : { dtype: checkDType(o['dtype'], 'load: option dtype') }),
    ...(o['mmapMode'] === 'r' ? { mmapMode: 'r' as const } : {}),
  };
}

/** Bytes read to find an .npy header: a header NumPy writes is far shorter (version 1.0 holds at most 64 KiB). */
const HEAD_BYTES = 1 << 16;

/** An array whose values stay in the .npy file at `source` (mmapMode 'r'): its header read now, its values as runs need them. */
async function loadMapped(source: unknown, dtype: DType | undefined): Promise<DeferredArray> {
  if (typeof source !== 'string' && !(source instanceof URL)) {
    throw new TypeError(`load: mmapMode needs a path (the values stay in the file); got ${describe(source)}`);
  }
  const path = pathOf(source);
  const name = `load: '${path}'`;
  let { head, size, identity } = await readHead('load', path, HEAD_BYTES);
  if (isZip(head)) throw new NotSupportedError(`${name} is an .npz archive; mmapMode maps .npy files (NumPy does not map .npz members either)`);
  if (isNpy(head) && head.length >= 12) {
    const length = head[6] === 1 ? head[8]! | (head[9]! << 8) : new DataView(head.buffer, head.byteOffset).getUint32(8, true);
    if (length + 12 > head.length && size > head.length) ({ head, size, identity } = await readHead('load', path, length + 12));
  }
  const header = readNpyHeader(head, name);
  const type = fileType(header.descr, name);
  const { shape } = header;
  if (header.fortranOrder && shape.length > 1) {
    throw new NotSupportedError(`${name} is in Fortran order; mmapMode streams C-ordered files (load it without mmapMode, or save it in C order)`);
  }
  const count = shape.reduce((a, b) => a * b, 1);
  if (header.dataOffset + count * type.bytes > size) {
    throw new FileFormatError(`${name} is truncated: its header says ${count} values of ${type.bytes} bytes (${count * type.bytes} bytes) from byte ${header.dataOffset}, but the file ends at byte ${size}`);
  }
  // What each chunk decodes to, asked of the decoder itself over no values.
  const decoded = decodeData(new Uint8Array(0), 0, type, 0, dtype, true, name).dtype;
  const wide = type.dtype === 'int64' || type.dtype === 'uint64';
  const x = wrapNode(mappedNode(npySource({ path, dataOffset: header.dataOffset, type, as: wide ? dtype : undefined, identity }, decoded), shape, decoded));
  return dtype && dtype !== decoded ? x.astype(dtype) : x;
}

/** A file's values as an array: one source, transposed where they are in Fortran order, converted where asked. */
function valuesArray(v: NpyValues): DeferredArray {
  const x = wrapNode(source(v.data, v.stored, v.dtype));
  const y = v.axes ? x.transpose(v.axes) : x;
  return v.as && v.as !== v.dtype ? y.astype(v.as) : y;
}

/** The array the .npy file `bytes` holds. */
const npyArray = (bytes: Uint8Array, name: string, options: ReadNpy): DeferredArray => valuesArray(readNpy(bytes, name, options));

/** The arrays of the .npz archive `bytes`, each read when first used (inflated or sliced out: its bytes are its own). `bytes` is kept until then: the caller's are copied first. */
function npzRecord(given: Uint8Array, owned: boolean, name: string, dtype: DType | undefined): NpzRecord {
  const bytes = owned ? given : given.slice();
  const members = npzMembers(bytes, name);
  const read = (member: string): DeferredArray => {
    const where = `${name}, member ${members.get(member)!}`;
    return npyArray(npzMember(bytes, members.get(member)!, `${where},`), where, { ...(dtype ? { dtype } : {}), owned: true });
  };
  return new NpzFile([...members.keys()], read, name) as NpzRecord;
}

/** Whether arrays under `x` are marked with output(): then execute() gives a record, its value under `result`. */
const hasMarks = (x: DeferredArray): boolean => topoOrder([nodeOf(x)]).some((n) => markOf(n) !== undefined);

/** The .npy file of `x`, computed straight into the file's bytes. */
async function npyBytes(x: DeferredArray): Promise<Uint8Array> {
  const { file, values } = npyFile(x.dtype, x.shape);
  await x.execute({ out: hasMarks(x) ? { result: values } : values });
  return file;
}

/**
 * Writes the .npy file of `x` to `path`: the header, then the values where
 * the kernel left them (a heap view, released once written), so that no
 * memory the size of the file is filled first; a copy only where the view is
 * not in C order.
 */
async function writeNpy(fn: string, path: string, x: DeferredArray): Promise<void> {
  const marked = hasMarks(x);
  const r = await x.execute({ view: true });
  try {
    const v = (marked ? (r as unknown as Record<string, StdNdarray>)['result'] : r) as StdNdarray;
    const data = v.data as TypedArray;
    const bytes = dtypeInfo(x.dtype).bytes;
    // stdlib gives a 0-d array the strides [0]: read the shape's axes only.
    const contiguous = v.shape.every((d, i) => d <= 1 || v.strides[i] === contiguousStrides(v.shape)[i]);
    const values = contiguous
      ? new Uint8Array(data.buffer, data.byteOffset + v.offset * bytes, x.size * bytes)
      : (await npyBytes(x)).subarray(npyHeader(x.dtype, x.shape).length);
    await writePath(fn, path, [npyHeader(x.dtype, x.shape), values]);
  } finally {
    release(r);
  }
}

/** The .npz file of `arrays` (each computed into its member's bytes): stored, or deflated when `compressed`. */
async function npzBytes(arrays: Readonly<Record<string, DeferredArray>>, compressed: boolean): Promise<Uint8Array> {
  const files: Record<string, Uint8Array> = {};
  for (const [name, x] of Object.entries(arrays)) files[name] = await npyBytes(x);
  return zipNpz(files, compressed);
}

/** The bytes of `source`, whether they are ours to keep (read or fetched for this call) or the caller's (then copied before use), and a name for errors. */
async function bytesOf(source: unknown): Promise<{ bytes: Uint8Array; owned: boolean; name: string; path?: string }> {
  if (typeof source === 'string' || source instanceof URL) {
    const path = pathOf(source);
    return { bytes: await readPath('load', source), owned: true, name: `'${path}'`, path };
  }
  if (source instanceof ArrayBuffer) return { bytes: new Uint8Array(source), owned: false, name: 'the bytes given' };
  if (ArrayBuffer.isView(source)) {
    return { bytes: new Uint8Array(source.buffer, source.byteOffset, source.byteLength), owned: false, name: 'the bytes given' };
  }
  const Blob_ = (globalThis as { Blob?: typeof Blob }).Blob;
  if (Blob_ && source instanceof Blob_) return { bytes: new Uint8Array(await source.arrayBuffer()), owned: true, name: 'the Blob given' };
  const Response_ = (globalThis as { Response?: typeof Response }).Response;
  if (Response_ && source instanceof Response_) {
    const name = source.url ? `'${source.url}'` : 'the Response given';
    if (!source.ok) throw new FileFormatError(`load: ${name} answered ${source.status} ${source.statusText}, not a file`);
    return { bytes: new Uint8Array(await source.arrayBuffer()), owned: true, name };
  }
  throw new TypeError(`load: expected a path, a file: URL, a Response, a Blob, an ArrayBuffer or a Uint8Array; got ${describe(source)}`);
}

/**
 * NumPy's np.load: the array an .npy file holds, or the arrays of an .npz
 * file as a record by name (each read when first used).
 */
function load(source: `${string}.npz`, options?: LoadOptions): Promise<NpzRecord>;
function load(source: `${string}.npy`, options?: LoadOptions): Promise<DeferredArray>;
function load(source: LoadSource, options?: LoadOptions): Promise<DeferredArray | NpzRecord>;
async function load(source: LoadSource, options?: LoadOptions): Promise<DeferredArray | NpzRecord> {
  const { dtype, mmapMode } = loadOptions(options);
  if (mmapMode) return loadMapped(source, dtype);
  const { bytes, owned, name, path } = await bytesOf(source);
  const said = path?.endsWith('.npz') ? 'npz' : path?.endsWith('.npy') ? 'npy' : undefined;
  if (isZip(bytes)) {
    if (said === 'npy') throw new FileFormatError(`load: ${name} is an .npz archive (a zip of arrays), though named .npy; to get its arrays, pass its bytes: load(await readFile(path))`);
    // Members are inflated or sliced out of the archive when read: the caller's bytes are never kept.
    return npzRecord(bytes, owned, name, dtype);
  }
  if (isNpy(bytes) && said === 'npz') {
    throw new FileFormatError(`load: ${name} is an .npy file (one array), though named .npz; to get its array, pass its bytes: load(await readFile(path))`);
  }
  if (!isNpy(bytes) && said !== 'npy') {
    const start = Array.from(bytes.subarray(0, 6), (b) => b.toString(16).padStart(2, '0')).join(' ');
    throw new FileFormatError(`load: ${name} is neither an .npy file (it would start \\x93NUMPY) nor an .npz archive (PK); it starts with ${start || 'nothing (it is empty)'}`);
  }
  return npyArray(bytes, `load: ${name}`, { ...(dtype ? { dtype } : {}), owned });
}

/** The array to write, wrapped if it is not one yet. */
function savable(fn: string, x: unknown, what: string): DeferredArray {
  if (x instanceof DeferredArray) return x;
  if (isArrayInput(x) || ArrayBuffer.isView(x)) return wrap(x as ArrayInput);
  throw new TypeError(`${fn}: ${what} must be a DeferredArray or an array da.wrap takes; got ${describe(x)}`);
}

/** The path `target` names, NumPy's suffix added where it is missing (as np.save adds it); null where the bytes are to be handed back. */
function targetPath(fn: string, target: unknown, suffix: string): string | null {
  if (target === null || (!hasFileSystem && (typeof target === 'string' || target instanceof URL))) return null;
  if (typeof target !== 'string' && !(target instanceof URL)) {
    throw new TypeError(`${fn}: the target must be a path, a file: URL, or null for the bytes; got ${describe(target)}`);
  }
  const path = pathOf(target);
  // Case and all, as NumPy checks it.
  return path.endsWith(suffix) ? path : `${path}${suffix}`;
}

/** Writes `bytes` to `target`, or hands them back. */
async function deliver(fn: string, target: unknown, suffix: string, bytes: Uint8Array): Promise<Uint8Array | undefined> {
  const path = targetPath(fn, target, suffix);
  if (path === null) return bytes;
  await writePath(fn, path, [bytes]);
  return undefined;
}

/**
 * NumPy's np.save: `x` as an .npy file (computed first if it is not yet).
 * To a path in Node, written whole or not at all (`.npy` added if the path
 * lacks it); with a `null` target, or where there is no file system, the
 * file's bytes are returned instead.
 */
async function save(target: SaveTarget, x: Savable): Promise<Uint8Array | undefined> {
  const path = targetPath('save', target, '.npy');
  const array = savable('save', x, 'the array');
  // Over arrays loaded with mmapMode: a result of their shape streams into the file a chunk at a time.
  // Over mapped arrays: a result that streams goes into the file a chunk at a time; others are computed first.
  if (readsMapped([nodeOf(array)])) {
    const plan = path !== null && array.ndim > 0 ? streamPlanIfAny([nodeOf(array)]) : undefined;
    if (plan) return saveStreamed(path!, plan, array).then(() => undefined);
    const computed = await array.execute();
    const value = wrap((hasMarks(array) ? (computed as unknown as Record<string, StdNdarray>)['result'] : computed) as StdNdarray);
    return path === null ? npyBytes(value) : writeNpy('save', path, value).then(() => undefined);
  }
  if (path === null) return npyBytes(array);
  await writeNpy('save', path, array);
  return undefined;
}

/** Streams `x` (elementwise over mapped arrays, by `plan`) into an .npy file at `path`: the header, then each chunk's values at their place; whole or not at all. */
async function saveStreamed(path: string, plan: StreamPlan, x: DeferredArray): Promise<void> {
  const header = npyHeader(x.dtype, x.shape);
  const { bytes, ctor } = dtypeInfo(x.dtype);
  const file = await openParts('save', path);
  // One buffer for every chunk's values: each is written to the file before the next is computed into it.
  let buffer = new ctor(0);
  try {
    await file.write(header, 0);
    await runStream(plan, {
      into: (_, from, to) => {
        if (buffer.length < to - from) buffer = new ctor(to - from);
        return buffer.subarray(0, to - from);
      },
      written: (_, values, from) => file.write(new Uint8Array(values.buffer, values.byteOffset, values.byteLength), header.length + from * bytes),
    });
    await file.commit();
  } catch (e) {
    await file.abandon();
    throw e;
  }
}

/** The arrays savez writes, by name: a record, or a list (named arr_0, arr_1, ... as NumPy names positional arrays). */
function members(fn: string, arrays: unknown): Record<string, DeferredArray> {
  if (Array.isArray(arrays)) return Object.fromEntries(arrays.map((x, i) => [`arr_${i}`, savable(fn, x, `arrays[${i}]`)]));
  if (typeof arrays !== 'object' || arrays === null || arrays instanceof DeferredArray || ArrayBuffer.isView(arrays)) {
    throw new TypeError(`${fn}: the arrays must be a record of them by name, like { a, b }, or a list; got ${describe(arrays)}`);
  }
  const out: Record<string, DeferredArray> = {};
  for (const [name, x] of Object.entries(arrays)) {
    if (name === '' || name.includes('/')) throw new TypeError(`${fn}: '${name}' cannot name a member: names must be non-empty and hold no '/'`);
    out[name] = savable(fn, x, `arrays.${name}`);
  }
  return out;
}

/** NumPy's np.savez: several arrays in one .npz (a zip of .npy files, stored). Targets as save(). */
async function savez(target: SaveTarget, arrays: Readonly<Record<string, Savable>> | readonly Savable[]): Promise<Uint8Array | undefined> {
  return deliver('savez', target, '.npz', await npzBytes(members('savez', arrays), false));
}

/** NumPy's np.savez_compressed: as savez, the members deflated. */
async function savezCompressed(target: SaveTarget, arrays: Readonly<Record<string, Savable>> | readonly Savable[]): Promise<Uint8Array | undefined> {
  return deliver('savezCompressed', target, '.npz', await npzBytes(members('savezCompressed', arrays), true));
}

export { load, save, savez, savezCompressed };
export type { LoadSource, LoadOptions, SaveTarget, Savable };
