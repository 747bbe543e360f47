// The dtypes of .npy files: NumPy's descr strings ('<f8', '>i4', '|b1') read
// as the package's dtypes, and the package's written as np.save writes them.
// float16, which the package has no dtype for, is read as float32, which
// holds each of its values exactly.
import { DTYPES } from '../ir/dtypes.js';
import type { DType } from '../ir/dtypes.js';
import { FileFormatError } from '../ir/errors.js';
import type { PyValue } from './python-literal.js';

/** A dtype a file may hold and the package reads: its own, and float16, converted as it loads. */
type FileDType = DType | 'float16';

interface FileType {
  readonly dtype: FileDType;
  readonly bytes: number;
  /** Stored most significant byte first (the file's '>'); never for one-byte types. */
  readonly bigEndian: boolean;
}

const BY_CODE: Readonly<Record<string, FileDType>> = {
  b1: 'bool', i1: 'int8', u1: 'uint8', i2: 'int16', u2: 'uint16', i4: 'int32', u4: 'uint32', i8: 'int64', u8: 'uint64',
  f2: 'float16', f4: 'float32', f8: 'float64',
};

/** What NumPy's type characters name, for the error about a dtype not read. */
const KINDS: Readonly<Record<string, string>> = {
  c: 'complex numbers', O: 'Python objects (pickled)', U: 'unicode strings', S: 'byte strings', a: 'byte strings',
  V: 'raw bytes (void)', M: 'datetimes', m: 'timedeltas', f: 'floats of this width', i: 'integers of this width',
  u: 'unsigned integers of this width', b: 'booleans of this width',
};

const supported = (): string =>
  `${DTYPES.join(', ')}; and float16 as float32`;

/** The file type a header's descr names (`name`: the file, for errors). */
function fileType(descr: PyValue, name: string): FileType {
  if (typeof descr !== 'string') {
    const what = Array.isArray(descr) ? 'a structured dtype (named fields)' : 'a dtype that is not a string';
    throw new FileFormatError(`${name} holds ${what}, which the package does not read; it reads ${supported()}`);
  }
  const m = /^([<>|=]?)([a-zA-Z])(\d*)(.*)$/.exec(descr);
  const code = m ? `${m[2]}${m[3]}` : '';
  const dtype = m && !m[4] ? BY_CODE[code] : undefined;
  if (!m || !dtype) {
    const kind = m ? KINDS[m[2]!] : undefined;
    throw new FileFormatError(`${name} holds dtype '${descr}'${kind ? ` (${kind})` : ''}, which the package does not read; it reads ${supported()}`);
  }
  const bytes = Number(m[3]);
  // '=' is the writer's own order: NumPy writes '<' or '>' for multi-byte types, so '=' comes from elsewhere; read as little-endian, as every host that runs WebAssembly is.
  return { dtype, bytes, bigEndian: m[1] === '>' && bytes > 1 };
}

/** The descr np.save writes for `dtype` (little-endian; '|' for one-byte types). */
function descrOf(dtype: DType): string {
  switch (dtype) {
    case 'float64': return '<f8';
    case 'float32': return '<f4';
    case 'int64': return '<i8';
    case 'uint64': return '<u8';
    case 'int32': return '<i4';
    case 'uint32': return '<u4';
    case 'int16': return '<i2';
    case 'uint16': return '<u2';
    case 'int8': return '|i1';
    case 'uint8': return '|u1';
    case 'bool': return '|b1';
  }
}

export { fileType, descrOf };
export type { FileType, FileDType };
