// The .npy header, NumPy's way (numpy/lib/format.py): the magic string, the
// format version (1.0, 2.0, 3.0), the header's length, and a Python dict
// literal naming the dtype, the order and the shape. Read from any file
// NumPy writes, and written byte for byte as np.save writes it (keys sorted,
// spare room after the shape for growing the first axis, padded with spaces
// to a multiple of 64 bytes so the data is aligned).
import { FileFormatError } from '../ir/errors.js';
import { parsePythonLiteral, pythonRepr } from './python-literal.js';
import type { PyValue } from './python-literal.js';

/** The magic string: \x93NUMPY. */
const MAGIC = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59];
/** Bytes before the header text: the magic string, two version bytes and the length (2 bytes in 1.0, 4 after). */
const PREFIX = { 1: 10, 2: 12, 3: 12 } as const;
/** The data starts at a multiple of this (NumPy's ARRAY_ALIGN). */
const ALIGN = 64;
/** Spare room NumPy leaves after the shape for its first axis to grow (GROWTH_AXIS_MAX_DIGITS). */
const GROWTH_DIGITS = 21;

interface NpyHeader {
  readonly version: 1 | 2 | 3;
  /** The dtype as NumPy wrote it: a string like '<f8', or a list for a structured dtype. */
  readonly descr: PyValue;
  readonly fortranOrder: boolean;
  readonly shape: readonly number[];
  /** Where the data starts, in bytes from the start of the file. */
  readonly dataOffset: number;
}

/** Whether `bytes` starts as an .npy file does. */
const isNpy = (bytes: Uint8Array): boolean => MAGIC.every((b, i) => bytes[i] === b);

/** The header of the .npy file `bytes` (`name` says which file in errors). */
function readNpyHeader(bytes: Uint8Array, name: string): NpyHeader {
  if (!isNpy(bytes)) {
    const start = Array.from(bytes.subarray(0, 6), (b) => b.toString(16).padStart(2, '0')).join(' ');
    throw new FileFormatError(`${name} is not an .npy file: it starts with ${start || 'nothing (it is empty)'}, not NumPy's magic string \\x93NUMPY`);
  }
  if (bytes.length < PREFIX[1]) throw new FileFormatError(`${name} is truncated: it ends inside the .npy header, at byte ${bytes.length}`);
  const [major, minor] = [bytes[6]!, bytes[7]!];
  if ((major !== 1 && major !== 2 && major !== 3) || minor !== 0) {
    throw new FileFormatError(`${name} is .npy format version ${major}.${minor}; the versions NumPy writes, 1.0, 2.0 and 3.0, are read`);
  }
  const version = major as 1 | 2 | 3;
  const prefix = PREFIX[version];
  if (bytes.length < prefix) throw new FileFormatError(`${name} is truncated: it ends inside the .npy header, at byte ${bytes.length}`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const length = version === 1 ? view.getUint16(8, true) : view.getUint32(8, true);
  const dataOffset = prefix + length;
  if (bytes.length < dataOffset) {
    throw new FileFormatError(`${name} is truncated: its .npy header says it is ${length} bytes long, but the file ends at byte ${bytes.length}, inside it`);
  }
  // 1.0 and 2.0 headers are latin1; 3.0 allows UTF-8 (for field names of structured dtypes).
  const text = new TextDecoder(version === 3 ? 'utf-8' : 'latin1').decode(bytes.subarray(prefix, dataOffset));
  let dict: PyValue;
  try {
    dict = parsePythonLiteral(text);
  } catch (e) {
    throw new FileFormatError(`${name} has an .npy header that is not a Python literal (${(e as Error).message}): ${JSON.stringify(text.trim())}`);
  }
  return { version, dataOffset, ...headerFields(dict, name, text) };
}

/** The dict's three fields, checked as NumPy checks them. */
function headerFields(dict: PyValue, name: string, text: string): Pick<NpyHeader, 'descr' | 'fortranOrder' | 'shape'> {
  const bad = (why: string): FileFormatError => new FileFormatError(`${name} has a bad .npy header (${why}): ${JSON.stringify(text.trim())}`);
  if (!(dict instanceof Map)) throw bad('it is not a dict');
  const keys = [...dict.keys()].sort();
  if (keys.join() !== 'descr,fortran_order,shape') throw bad(`its keys are ${keys.map((k) => `'${k}'`).join(', ') || 'none'}, not 'descr', 'fortran_order' and 'shape'`);
  const fortranOrder = dict.get('fortran_order');
  if (typeof fortranOrder !== 'boolean') throw bad('fortran_order is not True or False');
  const shape = dict.get('shape');
  if (!isTuple(shape) || !shape.items.every((d) => typeof d === 'number' && Number.isSafeInteger(d) && d >= 0)) {
    throw bad('shape is not a tuple of non-negative integers');
  }
  return { descr: dict.get('descr')!, fortranOrder, shape: shape.items as number[] };
}

const isTuple = (v: PyValue | undefined): v is { readonly tuple: true; readonly items: readonly PyValue[] } =>
  typeof v === 'object' && v !== null && !(v instanceof Map) && !Array.isArray(v) && 'tuple' in v;

/** The header np.save writes for an array of dtype `descr` (like '<f8'), C order, of `shape`: magic string to the newline. */
function writeNpyHeader(descr: string, shape: readonly number[]): Uint8Array {
  const shapeRepr = pythonRepr({ tuple: true, items: shape });
  let text = `{'descr': ${pythonRepr(descr)}, 'fortran_order': False, 'shape': ${shapeRepr}, }`;
  if (shape.length > 0) text += ' '.repeat(Math.max(0, GROWTH_DIGITS - String(shape[0]).length));
  // Version 1.0 unless the header outgrows its 2-byte length, as NumPy chooses (the text is ASCII: never 3.0).
  const padFor = (prefix: number): number => ALIGN - ((prefix + text.length + 1) % ALIGN);
  const version = text.length + 1 + padFor(PREFIX[1]) <= 0xffff ? 1 : 2;
  const prefix = PREFIX[version];
  const pad = padFor(prefix);
  const header = new Uint8Array(prefix + text.length + pad + 1);
  header.set(MAGIC);
  header[6] = version;
  const view = new DataView(header.buffer);
  const length = header.length - prefix;
  if (version === 1) view.setUint16(8, length, true);
  else view.setUint32(8, length, true);
  for (let i = 0; i < text.length; i++) header[prefix + i] = text.charCodeAt(i);
  header.fill(0x20, prefix + text.length, header.length - 1);
  header[header.length - 1] = 0x0a;
  return header;
}

export { readNpyHeader, writeNpyHeader, isNpy };
export type { NpyHeader };
