// Splits a module into the parts the disassembler prints: types, imports,
// functions (with where each body's code lies), exports and the function
// names of the 'name' section. Sections it has no use for are skipped whole.
import { ByteReader } from './bytes.js';

interface ReadFuncType {
  readonly params: readonly string[];
  readonly results: readonly string[];
}

interface ReadImport {
  readonly module: string;
  readonly name: string;
  readonly kind: 'func' | 'table' | 'memory' | 'global';
  /** The type index of an imported function. */
  readonly typeIndex?: number;
  /** WAT-like description of a table, memory or global import: `1 16 shared`, `mut i32`. */
  readonly desc: string;
}

interface ReadFunction {
  /** Index in the function index space (imported functions first). */
  readonly index: number;
  readonly type: ReadFuncType;
  /** Declared locals, one entry per local (the run-length groups expanded). */
  readonly locals: readonly string[];
  /** Offsets of the instructions (after the locals) up to and including the final end. */
  readonly codeStart: number;
  readonly codeEnd: number;
}

interface ReadExport {
  readonly name: string;
  readonly kind: 'func' | 'table' | 'memory' | 'global';
  readonly index: number;
}

interface ReadModule {
  readonly bytes: Uint8Array;
  readonly types: readonly ReadFuncType[];
  readonly imports: readonly ReadImport[];
  readonly functions: readonly ReadFunction[];
  readonly exports: readonly ReadExport[];
  /** Function index -> name, from the 'name' custom section. */
  readonly funcNames: ReadonlyMap<number, string>;
}

const MAGIC = [0x00, 0x61, 0x73, 0x6d];
const VERSION = [0x01, 0x00, 0x00, 0x00];
const VALTYPE_NAMES: Record<number, string> = {
  0x7f: 'i32', 0x7e: 'i64', 0x7d: 'f32', 0x7c: 'f64', 0x7b: 'v128', 0x70: 'funcref', 0x6f: 'externref',
};
const EXTERN_KINDS = ['func', 'table', 'memory', 'global'] as const;
/** Custom (0) sections may appear anywhere; the rest are recognised but only some are read. */
const KNOWN_SECTIONS = new Set([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);

function valType(r: ByteReader): string {
  const at = r.offset;
  const b = r.u8();
  return VALTYPE_NAMES[b] ?? r.fail(`unknown value type 0x${b.toString(16)}`, at);
}

function vec<T>(r: ByteReader, item: (r: ByteReader) => T): T[] {
  const n = r.uleb();
  const out: T[] = [];
  for (let i = 0; i < n; i++) out.push(item(r));
  return out;
}

function limits(r: ByteReader): string {
  const at = r.offset;
  const flags = r.u8();
  if (flags > 0x03) r.fail(`limits flags 0x${flags.toString(16)} are not supported (memory64 or a newer proposal)`, at);
  const min = r.uleb();
  const max = flags & 0x01 ? ` ${r.uleb()}` : '';
  return `${min}${max}${flags & 0x02 ? ' shared' : ''}`;
}

function funcType(r: ByteReader): ReadFuncType {
  const at = r.offset;
  const form = r.u8();
  if (form !== 0x60) r.fail(`type form 0x${form.toString(16)} is not a function type (0x60)`, at);
  return { params: vec(r, valType), results: vec(r, valType) };
}

function importEntry(r: ByteReader, types: readonly ReadFuncType[]): ReadImport {
  const module = r.name();
  const name = r.name();
  const at = r.offset;
  const kind = EXTERN_KINDS[r.u8()] ?? r.fail('unknown import kind (expected 0 func, 1 table, 2 memory or 3 global)', at);
  switch (kind) {
    case 'func': {
      const typeAt = r.offset;
      const typeIndex = r.uleb();
      if (typeIndex >= types.length) r.fail(`import ${module}.${name} names type ${typeIndex}, but there are ${types.length} types`, typeAt);
      return { module, name, kind, typeIndex, desc: '' };
    }
    case 'table': {
      const ref = valType(r);
      return { module, name, kind, desc: `${limits(r)} ${ref}` };
    }
    case 'memory':
      return { module, name, kind, desc: limits(r) };
    case 'global': {
      const t = valType(r);
      const mutAt = r.offset;
      const mut = r.u8();
      if (mut > 1) r.fail(`global mutability flag ${mut} is neither 0 nor 1`, mutAt);
      return { module, name, kind, desc: mut ? `(mut ${t})` : t };
    }
  }
}

/** Function names from the 'name' custom section (subsection 1); other subsections are skipped. */
function nameSection(r: ByteReader, names: Map<number, string>): void {
  while (!r.done) {
    const id = r.u8();
    const size = r.uleb();
    const sub = new ByteReader(r.bytes(size), r.offset - size);
    if (id !== 1) continue;
    for (const [index, name] of vec(sub, (s) => [s.uleb(), s.name()] as const)) names.set(index, name);
    if (!sub.done) sub.fail('trailing bytes after the function names of the name section');
  }
}

interface Body {
  readonly locals: string[];
  readonly codeStart: number;
  readonly codeEnd: number;
}

function codeEntry(r: ByteReader): Body {
  const size = r.uleb();
  const body = new ByteReader(r.bytes(size), r.offset - size);
  const locals: string[] = [];
  let total = 0;
  for (const [count, type] of vec(body, (b) => [b.uleb(), valType(b)] as const)) {
    total += count;
    // A count is a u32; expanding billions of locals would only exhaust memory.
    if (total > 50000) body.fail(`${total} locals is more than any real function declares (the limit is 50000)`);
    for (let i = 0; i < count; i++) locals.push(type);
  }
  return { locals, codeStart: body.offset, codeEnd: body.base + size };
}

function readModule(bytes: Uint8Array): ReadModule {
  const r = new ByteReader(bytes);
  if (bytes.length < 8) r.fail(`a module starts with 8 header bytes; got ${bytes.length} bytes in all`);
  if (MAGIC.some((b, i) => bytes[i] !== b)) r.fail('not a WebAssembly module: the magic bytes 00 61 73 6d are missing');
  if (VERSION.some((b, i) => bytes[i + 4] !== b)) r.fail('unsupported binary version: expected 01 00 00 00', 4);
  r.bytes(8);

  let types: ReadFuncType[] = [];
  let imports: ReadImport[] = [];
  let funcTypes: Array<{ at: number; index: number }> = [];
  let bodies: Body[] = [];
  let bodiesAt = -1;
  let exports: ReadExport[] = [];
  const funcNames = new Map<number, string>();

  while (!r.done) {
    const idAt = r.offset;
    const id = r.u8();
    if (!KNOWN_SECTIONS.has(id)) r.fail(`unknown section id ${id}`, idAt);
    const size = r.uleb();
    const s = new ByteReader(r.bytes(size), r.offset - size);
    switch (id) {
      case 0:
        if (s.name() === 'name') nameSection(s, funcNames);
        continue; // other custom sections are opaque by design
      case 1: types = vec(s, funcType); break;
      case 2: imports = vec(s, (x) => importEntry(x, types)); break;
      case 3: funcTypes = vec(s, (x) => ({ at: x.offset, index: x.uleb() })); break;
      case 7:
        exports = vec(s, (x) => {
          const name = x.name();
          const at = x.offset;
          const kind = EXTERN_KINDS[x.u8()] ?? x.fail('unknown export kind', at);
          return { name, kind, index: x.uleb() };
        });
        break;
      case 10: bodiesAt = s.offset; bodies = vec(s, codeEntry); break;
      default: continue; // table, memory, global, start, element, data, data count: not printed
    }
    if (!s.done) s.fail(`section ${id} has ${s.buf.length - s.pos} bytes left over after its last entry`);
  }

  if (funcTypes.length !== bodies.length) {
    r.fail(`the function section declares ${funcTypes.length} functions but the code section has ${bodies.length} bodies`, Math.max(bodiesAt, 0));
  }
  const importedFuncs = imports.filter((i) => i.kind === 'func').length;
  const functions = bodies.map((b, i): ReadFunction => {
    const t = funcTypes[i] ?? r.fail(`function ${importedFuncs + i} has no type`, Math.max(bodiesAt, 0));
    const type = types[t.index] ?? r.fail(`function ${importedFuncs + i} names type ${t.index}, but there are ${types.length} types`, t.at);
    return { index: importedFuncs + i, type, locals: b.locals, codeStart: b.codeStart, codeEnd: b.codeEnd };
  });
  return { bytes, types, imports, functions, exports, funcNames };
}

export { readModule };
export type { ReadModule, ReadFunction, ReadImport, ReadExport, ReadFuncType };
