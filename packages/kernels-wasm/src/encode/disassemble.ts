// Turns a module built by ModuleBuilder back into WAT-like text, one
// instruction per line, indented by block depth, so that kernels can be read
// (explain()) and tests can assert on what was emitted. Decoding is driven by
// the OPCODES table: an instruction added there is decodable here.
import { ByteReader, WasmDecodeError } from './bytes.js';
import { OPCODES } from './opcodes.js';
import type { Imm } from './opcodes.js';
import { readModule } from './read-module.js';
import type { ReadFunction, ReadFuncType, ReadModule } from './read-module.js';

interface Entry {
  readonly name: string;
  readonly imm: Imm;
}

interface DecodeTable {
  readonly single: ReadonlyMap<number, Entry>;
  readonly prefixed: ReadonlyMap<number, ReadonlyMap<number, Entry>>;
}

/** OPCODES reversed: one-byte opcodes by byte, prefixed ones by prefix, then sub-opcode. */
function buildDecodeTable(): DecodeTable {
  const single = new Map<number, Entry>();
  const prefixed = new Map<number, Map<number, Entry>>();
  for (const [name, info] of OPCODES) {
    let into: Map<number, Entry> = single;
    if (info.prefix !== undefined) {
      into = prefixed.get(info.prefix) ?? new Map<number, Entry>();
      prefixed.set(info.prefix, into);
    }
    const clash = into.get(info.code);
    if (clash) throw new Error(`internal: opcodes ${clash.name} and ${name} share the encoding ${encoding(info.prefix, info.code)}`);
    into.set(info.code, { name, imm: info.imm });
  }
  for (const p of prefixed.keys()) {
    const clash = single.get(p);
    if (clash) throw new Error(`internal: ${clash.name} uses the byte 0x${p.toString(16)}, which is a prefix`);
  }
  return { single, prefixed };
}

const TABLE = buildDecodeTable();

function encoding(prefix: number | undefined, code: number): string {
  const hex = (n: number): string => `0x${n.toString(16).padStart(2, '0')}`;
  return prefix === undefined ? hex(code) : `${hex(prefix)} ${hex(code)}`;
}

function nextOpcode(r: ByteReader): Entry {
  const at = r.offset;
  const b = r.u8();
  const sub = TABLE.prefixed.get(b);
  const code = sub ? r.uleb() : b;
  const entry = sub ? sub.get(code) : TABLE.single.get(b);
  if (entry) return entry;
  return r.fail(`unknown opcode ${encoding(sub ? b : undefined, code)}; decodable instructions are those in OPCODES (encode/opcodes.ts)`, at);
}

// ---- constants -------------------------------------------------------------

function nanText(negative: boolean, payload: bigint, canonical: bigint): string {
  return `${negative ? '-' : ''}nan${payload === canonical ? '' : `:0x${payload.toString(16)}`}`;
}

function f64Text(raw: Uint8Array): string {
  const v = new DataView(raw.slice().buffer);
  const x = v.getFloat64(0, true);
  if (Number.isNaN(x)) return nanText((v.getUint8(7) & 0x80) !== 0, v.getBigUint64(0, true) & ((1n << 52n) - 1n), 1n << 51n);
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  return Object.is(x, -0) ? '-0' : String(x);
}

function f32Text(raw: Uint8Array): string {
  const v = new DataView(raw.slice().buffer);
  const x = v.getFloat32(0, true);
  if (Number.isNaN(x)) return nanText((v.getUint8(3) & 0x80) !== 0, BigInt(v.getUint32(0, true) & 0x7fffff), 1n << 22n);
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  if (Object.is(x, -0)) return '-0';
  // The shortest decimal that reads back as the same f32 (String(x) would show the f64 widening).
  for (let p = 1; p < 9; p++) {
    const d = Number(x.toPrecision(p));
    if (Math.fround(d) === x) return String(d);
  }
  return String(x);
}

/** A lane worth showing as a float: an ordinary magnitude with a short decimal, zero, inf or nan. */
function plainFloat(text: string): boolean {
  if (text === '0' || text === '-0' || /^-?(?:inf|nan)$/.test(text)) return true;
  const x = Math.abs(Number(text));
  return x >= 1e-6 && x < 1e15 && text.length <= 12;
}

/**
 * v128.const in the shape that reads best: small integers as i32x4, vectors of
 * plain floats as f64x2 or f32x4, anything else (masks, bit patterns) as hex.
 */
function v128Text(raw: Uint8Array): string {
  const v = new DataView(raw.slice().buffer);
  const i32 = [0, 4, 8, 12].map((o) => v.getInt32(o, true));
  if (i32.every((x) => Math.abs(x) <= 0xffff)) return `i32x4 ${i32.join(' ')}`;
  const f64 = [0, 8].map((o) => f64Text(raw.subarray(o, o + 8)));
  if (f64.every(plainFloat)) return `f64x2 ${f64.join(' ')}`;
  const f32 = [0, 4, 8, 12].map((o) => f32Text(raw.subarray(o, o + 4)));
  if (f32.every(plainFloat)) return `f32x4 ${f32.join(' ')}`;
  return `i32x4 ${i32.map((x) => `0x${(x >>> 0).toString(16).padStart(8, '0')}`).join(' ')}`;
}

// ---- immediates ------------------------------------------------------------

interface Context {
  readonly op: string;
  readonly module: ReadModule;
  readonly funcName: (index: number) => string;
}

function memarg(r: ByteReader): string {
  const at = r.offset;
  const flags = r.uleb();
  // Bit 6 of the alignment field announces a memory index (multi-memory).
  const multi = (flags & 0x40) !== 0;
  const exponent = multi ? flags - 0x40 : flags;
  if (exponent > 31) r.fail(`memory alignment exponent ${exponent} is beyond any access size`, at);
  const memory = multi ? ` memory=${r.uleb()}` : '';
  const offset = r.uleb();
  return `${memory} align=${2 ** exponent} offset=${offset}`;
}

function blockType(r: ByteReader, cx: Context): string {
  // 0x40 (empty) and the value types read as negative s33 values; a type index is non-negative.
  const at = r.offset;
  const t = r.sleb(33);
  if (t === -64n) return '';
  if (t >= 0n) return cx.module.types[Number(t)] ? ` (type ${t})` : r.fail(`block type index ${t} names no type`, at);
  const byte = Number(t & 0x7fn);
  const name = { 0x7f: 'i32', 0x7e: 'i64', 0x7d: 'f32', 0x7c: 'f64', 0x7b: 'v128' }[byte];
  return name ? ` (result ${name})` : r.fail(`unknown block type 0x${byte.toString(16)}`, at);
}

/** One printer per immediate kind; the Record makes a new kind in opcodes.ts a compile error here. */
const IMMEDIATES: Record<Imm, (r: ByteReader, cx: Context) => string> = {
  none: () => '',
  index: (r, cx) => (cx.op === 'call' ? ` ${cx.funcName(r.uleb())}` : ` ${r.uleb()}`),
  i32: (r) => ` ${r.sleb(32)}`,
  i64: (r) => ` ${r.sleb(64)}`,
  f32: (r) => ` ${f32Text(r.bytes(4))}`,
  f64: (r) => ` ${f64Text(r.bytes(8))}`,
  memarg,
  lane: (r) => ` ${r.u8()}`,
  memarg_lane: (r) => `${memarg(r)} ${r.u8()}`,
  v128: (r) => ` ${v128Text(r.bytes(16))}`,
  shuffle: (r) => ` ${Array.from(r.bytes(16)).join(' ')}`,
  block: blockType,
  memidx: (r) => {
    const m = r.uleb();
    return m === 0 ? '' : ` ${m}`;
  },
  memidx2: (r) => {
    const [to, from] = [r.uleb(), r.uleb()];
    return to === 0 && from === 0 ? '' : ` ${to} ${from}`;
  },
  br_table: (r) => {
    const labels: number[] = [];
    // Each label takes at least a byte, so a malformed count runs out of input rather than memory.
    for (let n = r.uleb(); n > 0; n--) labels.push(r.uleb());
    return ` ${[...labels, r.uleb()].join(' ')}`;
  },
  call_indirect: (r) => {
    const type = r.uleb();
    const table = r.uleb();
    return `${table === 0 ? '' : ` ${table}`} (type ${type})`;
  },
};

// ---- functions and modules -------------------------------------------------

const INDENT = '  ';

function idText(name: string): string {
  // WAT identifiers allow these characters; anything else gets the quoted form.
  return /^[0-9A-Za-z!#$%&'*+\-./:<=>?@\\^_`|~]+$/.test(name) ? `$${name}` : `$${JSON.stringify(name)}`;
}

function signature(t: ReadFuncType): string {
  const params = t.params.length ? ` (param ${t.params.join(' ')})` : '';
  const results = t.results.length ? ` (result ${t.results.join(' ')})` : '';
  return params + results;
}

function namer(m: ReadModule): (index: number) => string {
  const exported = new Map(m.exports.filter((e) => e.kind === 'func').map((e) => [e.index, e.name]));
  const imported = m.imports.filter((i) => i.kind === 'func');
  return (index) => {
    const imp = imported[index];
    return idText(m.funcNames.get(index) ?? exported.get(index) ?? (imp ? `${imp.module}.${imp.name}` : `f${index}`));
  };
}

/** The instructions of one body, each line indented by `indent` plus two spaces per open block. */
function instructions(m: ReadModule, f: ReadFunction, funcName: (i: number) => string, indent: string): string[] {
  const r = new ByteReader(m.bytes.subarray(f.codeStart, f.codeEnd), f.codeStart);
  const lines: string[] = [];
  const open: string[] = [];
  const where = (): string => `in function ${funcName(f.index)}`;
  for (;;) {
    if (r.done) r.fail(`${where()}: the body runs out before its final end (${open.length} block(s) open)`);
    const at = r.offset;
    const { name, imm } = nextOpcode(r);
    const text = name + IMMEDIATES[imm](r, { op: name, module: m, funcName });
    let depth = open.length;
    if (name === 'end') {
      if (open.length === 0) {
        if (!r.done) r.fail(`${where()}: ${f.codeEnd - r.offset} byte(s) follow the final end`);
        return lines;
      }
      open.pop();
      depth = open.length;
    } else if (name === 'else') {
      if (open[open.length - 1] !== 'if') r.fail(`${where()}: else outside an if`, at);
      open[open.length - 1] = 'else';
      depth = open.length - 1;
    } else if (imm === 'block') {
      open.push(name);
    }
    lines.push(indent + INDENT.repeat(depth) + text);
  }
}

/** `(local ...)`, with the index range of each type once there are too many to count by eye. */
function localsText(f: ReadFunction): string {
  let text = `(local ${f.locals.join(' ')})`;
  if (f.locals.length <= 4) return text;
  const ranges: string[] = [];
  let start = 0;
  f.locals.forEach((t, i) => {
    if (f.locals[i + 1] === t) return;
    const [lo, hi] = [f.type.params.length + start, f.type.params.length + i];
    ranges.push(`${lo === hi ? lo : `${lo}..${hi}`} ${t}`);
    start = i + 1;
  });
  text += ` ;; ${ranges.join(', ')}`;
  return text;
}

function functionText(m: ReadModule, f: ReadFunction, funcName: (i: number) => string, indent: string): string[] {
  const inner = indent + INDENT;
  return [
    `${indent}(func ${funcName(f.index)}${signature(f.type)}`,
    ...(f.locals.length ? [inner + localsText(f)] : []),
    ...instructions(m, f, funcName, inner),
    `${indent})`,
  ];
}

function importText(m: ReadModule, funcName: (i: number) => string): string[] {
  let funcIndex = 0;
  return m.imports.map((i) => {
    const what = i.kind === 'func'
      ? `func ${funcName(funcIndex++)}${signature(m.types[i.typeIndex!]!)}`
      : `${i.kind} ${i.desc}`;
    return `${INDENT}(import ${JSON.stringify(i.module)} ${JSON.stringify(i.name)} (${what}))`;
  });
}

/**
 * The whole module as WAT-like text: imports, each function (params, locals,
 * one instruction per line), exports. Memory alignments print in bytes
 * (`align=8`), as in the text format; the binary holds their log2.
 */
function disassemble(bytes: Uint8Array): string {
  const m = readModule(bytes);
  const funcName = namer(m);
  return [
    '(module',
    ...importText(m, funcName),
    ...m.functions.flatMap((f) => functionText(m, f, funcName, INDENT)),
    ...m.exports.map((e) => `${INDENT}(export ${JSON.stringify(e.name)} (${e.kind} ${e.kind === 'func' ? funcName(e.index) : e.index}))`),
    ')',
  ].join('\n');
}

/** One defined function, found by its name (name section) or export name, as `(func ...)` text. */
function disassembleFunction(bytes: Uint8Array, name: string): string {
  const m = readModule(bytes);
  const funcName = namer(m);
  const byName = (index: number): boolean =>
    m.funcNames.get(index) === name || m.exports.some((e) => e.kind === 'func' && e.index === index && e.name === name);
  const f = m.functions.find((fn) => byName(fn.index));
  if (!f) {
    const imported = m.imports.some((i) => i.kind === 'func' && `${i.module}.${i.name}` === name);
    const known = m.functions.map((fn) => funcName(fn.index).slice(1)).join(', ') || 'none';
    throw new Error(imported
      ? `function '${name}' is imported, so this module holds no body for it`
      : `no function named '${name}' in this module; it defines: ${known}`);
  }
  return functionText(m, f, funcName, '').join('\n');
}

export { disassemble, disassembleFunction, WasmDecodeError };
