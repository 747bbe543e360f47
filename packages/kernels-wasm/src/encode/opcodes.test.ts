// Every instruction in OPCODES is emitted, type-correctly, inside a function of
// a module that must validate, and must disassemble back to its name and
// immediates. The operand types come from a table of name patterns written
// here, independently of the encoder, so a wrong opcode byte shows up as a
// validation failure or a wrong name in the disassembly.
import { ByteReader, ByteWriter } from './bytes.js';
import { disassembleFunction } from './disassemble.js';
import { FunctionBuilder, laneCount, naturalAlign } from './function-builder.js';
import { ModuleBuilder } from './module-builder.js';
import { OPCODES, opcode } from './opcodes.js';
import type { ValType } from './types.js';

interface Sig {
  readonly params: readonly ValType[];
  readonly results: readonly ValType[];
}

const sig = (params: ValType[], results: ValType[]): Sig => ({ params, results });
const v: ValType = 'v128';

const SPECIAL: Record<string, Sig> = {
  'unreachable': sig([], []), 'nop': sig([], []), 'return': sig([], []), 'drop': sig(['i32'], []),
  'select': sig(['i32', 'i32', 'i32'], ['i32']),
  'local.set': sig(['i32'], []), 'local.tee': sig(['i32'], ['i32']),
  'global.get': sig([], ['i32']), 'global.set': sig(['i32'], []),
  'memory.size': sig([], ['i32']), 'memory.grow': sig(['i32'], ['i32']),
  'memory.copy': sig(['i32', 'i32', 'i32'], []), 'memory.fill': sig(['i32', 'i32', 'i32'], []),
  'memory.atomic.notify': sig(['i32', 'i32'], ['i32']),
  'memory.atomic.wait32': sig(['i32', 'i32', 'i64'], ['i32']),
  'memory.atomic.wait64': sig(['i32', 'i64', 'i64'], ['i32']),
  'atomic.fence': sig([], []),
  'v128.const': sig([], [v]), 'v128.store': sig(['i32', v], []),
  'i8x16.shuffle': sig([v, v], [v]), 'v128.bitselect': sig([v, v, v], [v]), 'v128.any_true': sig([v], ['i32']),
};

const SCALAR: Record<string, ValType> = { i8x16: 'i32', i16x8: 'i32', i32x4: 'i32', i64x2: 'i64', f32x4: 'f32', f64x2: 'f64' };

/** The operand and result types of a non-control instruction, from its name alone. */
function signatureOf(name: string): Sig {
  const special = SPECIAL[name];
  if (special) return special;
  const [prefix = '', op = ''] = name.split(/\.(.*)/s);
  const t = prefix as ValType;
  let m: RegExpExecArray | null;
  if (/^[if](32|64)$/.test(prefix)) {
    if (op === 'const') return sig([], [t]);
    if (/^load/.test(op) || /^atomic\.load/.test(op)) return sig(['i32'], [t]);
    if (/^store/.test(op) || /^atomic\.store/.test(op)) return sig(['i32', t], []);
    if (/^atomic\.rmw.*cmpxchg/.test(op)) return sig(['i32', t, t], [t]);
    if (/^atomic\.rmw/.test(op)) return sig(['i32', t], [t]);
    if (op === 'eqz') return sig([t], ['i32']);
    if (/^(eq|ne|lt|gt|le|ge)(_[su])?$/.test(op)) return sig([t, t], ['i32']);
    if ((m = /_(i32|i64|f32|f64)(_[su])?$/.exec(op))) return sig([m[1] as ValType], [t]); // conversions
    if (/^(clz|ctz|popcnt|abs|neg|ceil|floor|trunc|nearest|sqrt|extend(8|16|32)_s)$/.test(op)) return sig([t], [t]);
    return sig([t, t], [t]);
  }
  if (prefix === 'v128') {
    if (/^load\d+_lane$/.test(op)) return sig(['i32', v], [v]);
    if (/^store\d+_lane$/.test(op)) return sig(['i32', v], []);
    if (/^load/.test(op)) return sig(['i32'], [v]);
    if (op === 'not') return sig([v], [v]);
    return sig([v, v], [v]); // and, andnot, or, xor
  }
  const scalar = SCALAR[prefix];
  if (scalar) {
    if (op === 'splat') return sig([scalar], [v]);
    if (/^extract_lane/.test(op)) return sig([v], [scalar]);
    if (op === 'replace_lane') return sig([v, scalar], [v]);
    if (op === 'all_true' || op === 'bitmask') return sig([v], ['i32']);
    if (/^(shl|shr_[su])$/.test(op)) return sig([v, 'i32'], [v]);
    if (/^(abs|neg|popcnt|sqrt|ceil|floor|trunc|nearest)$|^(extend|extadd_pairwise|convert|trunc_sat|demote|promote)_/.test(op)) {
      return sig([v], [v]);
    }
    return sig([v, v], [v]);
  }
  throw new Error(`test table: no signature for ${name}; add it to signatureOf`);
}

interface Case {
  readonly sig: Sig;
  /** Emits the instruction (operands are already on the stack, from the params). */
  readonly emit: (f: FunctionBuilder, m: { voidType: number; self: number }) => void;
  /** A line the disassembly must contain. */
  readonly expect: string;
}

const SHUFFLE = [0, 17, 2, 19, 4, 21, 6, 23, 8, 25, 10, 27, 12, 29, 14, 31];

const CONTROL: Record<string, Case> = {
  block: { sig: sig([], []), emit: (f) => f.block().end(), expect: 'block' },
  loop: { sig: sig([], []), emit: (f) => f.loop('i32').op('i32.const', 1).end().op('drop'), expect: 'loop (result i32)' },
  if: { sig: sig(['i32'], []), emit: (f) => f.op('local.get', 0).if().op('nop').end(), expect: 'if' },
  else: {
    sig: sig(['i32'], ['f64']),
    emit: (f) => f.op('local.get', 0).if('f64').op('f64.const', 1).else().op('f64.const', 2).end(),
    expect: 'else',
  },
  end: { sig: sig([], []), emit: (f) => f.block().op('end'), expect: 'end' },
  br: { sig: sig([], []), emit: (f) => f.block().op('br', 0).end(), expect: 'br 0' },
  br_if: { sig: sig(['i32'], []), emit: (f) => f.block().op('local.get', 0).op('br_if', 0).end(), expect: 'br_if 0' },
  br_table: { sig: sig(['i32'], []), emit: (f) => f.block().block().op('local.get', 0).brTable([0, 1], 1).end().end(), expect: 'br_table 0 1 1' },
  'local.get': { sig: sig(['i32'], ['i32']), emit: (f) => f.op('local.get', 0), expect: 'local.get 0' },
  call: { sig: sig([], []), emit: (f, m) => f.op('call', m.self), expect: 'call $f' },
  call_indirect: { sig: sig(['i32'], []), emit: (f, m) => f.op('local.get', 0).op('call_indirect', m.voidType), expect: 'call_indirect (type 1)' },
};

const CONSTS: Record<string, [number | bigint, string]> = {
  'i32.const': [-7, 'i32.const -7'],
  'i64.const': [-9007199254740993n, 'i64.const -9007199254740993'],
  'f32.const': [1.5, 'f32.const 1.5'],
  'f64.const': [-0.1, 'f64.const -0.1'],
};

/** How the generic (non-control) cases pass their immediates, and what they print. */
function genericCase(name: string): Case {
  const s = signatureOf(name);
  const info = opcode(name);
  const lane = (laneCount(name) ?? 0) - 1; // the highest valid lane: off-by-one errors fail validation
  switch (info.imm) {
    case 'none': return { sig: s, emit: (f) => f.op(name), expect: name };
    case 'memidx': case 'memidx2': return { sig: s, emit: (f) => f.op(name), expect: name };
    case 'index': return { sig: s, emit: (f) => f.op(name, 0), expect: `${name} 0` };
    case 'i32': case 'i64': case 'f32': case 'f64': {
      const [value, text] = CONSTS[name]!;
      return { sig: s, emit: (f) => f.op(name, value), expect: text };
    }
    case 'lane': return { sig: s, emit: (f) => f.op(name, lane), expect: `${name} ${lane}` };
    case 'memarg': {
      const align = 2 ** naturalAlign(name);
      return { sig: s, emit: (f) => f.mem(name, { offset: 16 }), expect: `${name} align=${align} offset=16` };
    }
    case 'memarg_lane': {
      const align = 2 ** naturalAlign(name);
      return { sig: s, emit: (f) => f.mem(name, { offset: 16 }, lane), expect: `${name} align=${align} offset=16 ${lane}` };
    }
    case 'v128': return { sig: s, emit: (f) => f.v128f64(1.5, -2), expect: 'v128.const f64x2 1.5 -2' };
    case 'shuffle': return { sig: s, emit: (f) => f.shuffle(SHUFFLE), expect: `i8x16.shuffle ${SHUFFLE.join(' ')}` };
    default: throw new Error(`test table: ${name} has immediate kind ${info.imm}; give it a CONTROL case`);
  }
}

/** Adds a one-entry funcref table and one mutable i32 global, which ModuleBuilder cannot declare. */
function withTableAndGlobal(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  const r = new ByteReader(bytes);
  const w = new ByteWriter().bytes(r.bytes(8));
  while (!r.done) {
    const id = r.u8();
    const body = r.bytes(r.uleb());
    if (id === 7) {
      w.u8(4).sized((s) => s.uleb(1).u8(0x70).u8(0).uleb(1)); // table section, before exports
      w.u8(6).sized((s) => s.uleb(1).u8(0x7f).u8(1).u8(0x41).sleb(0).u8(0x0b)); // global section
    }
    w.u8(id).uleb(body.length).bytes(body);
  }
  return w.finish();
}

function moduleFor(name: string): Uint8Array<ArrayBuffer> {
  const c = CONTROL[name] ?? genericCase(name);
  const mb = new ModuleBuilder();
  mb.importMemory({ module: 'env', name: 'memory', initial: 1, maximum: 1, shared: true });
  const [self, f] = mb.func('f', c.sig.params, c.sig.results);
  const voidType = mb.type([], []);
  if (!CONTROL[name]) c.sig.params.forEach((_, i) => f.op('local.get', i));
  c.emit(f, { voidType, self });
  return withTableAndGlobal(mb.toBytes());
}

const ALL = [...OPCODES.keys()];

describe('every opcode in OPCODES', () => {
  test('the table is complete enough to be worth this test', () => {
    expect(ALL.length).toBeGreaterThan(400);
  });

  test.each(ALL)('%s validates and disassembles back', (name) => {
    const bytes = moduleFor(name);
    const expected = (CONTROL[name] ?? genericCase(name)).expect;
    let text = '';
    try {
      text = disassembleFunction(bytes, 'f');
    } finally {
      // Name the instruction and show the listing if validation fails; it says more than `false`.
      if (!WebAssembly.validate(bytes)) {
        let why = '';
        try {
          new WebAssembly.Module(bytes);
        } catch (e) {
          why = (e as Error).message;
        }
        // eslint-disable-next-line no-unsafe-finally -- the listing says more than the disassembler's own error
        throw new Error(`${name}: module does not validate: ${why}\n${text}`);
      }
    }
    expect(text.split('\n').map((l) => l.trim())).toContain(expected);
  });
});

describe('encodings spot-checked against the spec', () => {
  // From the spec's instruction index (document/core/appendix/index-instructions) and
  // the threads proposal overview: a sample across every range, including the
  // two-byte LEB128 SIMD sub-opcodes (>= 0x80) and the gaps left by removed ops.
  const known: Array<[string, number[], string]> = [
    ['select', [0x1b], 'none'],
    ['i64.load32_u', [0x35], 'memarg'],
    ['memory.grow', [0x40], 'memidx'],
    ['f64.copysign', [0xa6], 'none'],
    ['i64.extend32_s', [0xc4], 'none'],
    ['i64.trunc_sat_f64_u', [0xfc, 0x07], 'none'],
    ['memory.copy', [0xfc, 0x0a], 'memidx2'],
    ['memory.fill', [0xfc, 0x0b], 'memidx'],
    ['v128.load64_splat', [0xfd, 0x0a], 'memarg'],
    ['i8x16.shuffle', [0xfd, 0x0d], 'shuffle'],
    ['f64x2.replace_lane', [0xfd, 0x22], 'lane'],
    ['v128.any_true', [0xfd, 0x53], 'none'],
    ['v128.load8_lane', [0xfd, 0x54], 'memarg_lane'],
    ['v128.store64_lane', [0xfd, 0x5b], 'memarg_lane'],
    ['v128.load64_zero', [0xfd, 0x5d], 'memarg'],
    ['f64x2.promote_low_f32x4', [0xfd, 0x5f], 'none'],
    ['i32x4.extadd_pairwise_i16x8_u', [0xfd, 0x7f], 'none'],
    ['i16x8.abs', [0xfd, 0x80, 0x01], 'none'],
    ['f64x2.nearest', [0xfd, 0x94, 0x01], 'none'],
    ['i16x8.avgr_u', [0xfd, 0x9b, 0x01], 'none'],
    ['i32x4.dot_i16x8_s', [0xfd, 0xba, 0x01], 'none'],
    ['i64x2.all_true', [0xfd, 0xc3, 0x01], 'none'],
    ['i64x2.ge_s', [0xfd, 0xdb, 0x01], 'none'],
    ['f32x4.sqrt', [0xfd, 0xe3, 0x01], 'none'],
    ['f64x2.add', [0xfd, 0xf0, 0x01], 'none'],
    ['f64x2.pmax', [0xfd, 0xf7, 0x01], 'none'],
    ['f64x2.convert_low_i32x4_u', [0xfd, 0xff, 0x01], 'none'],
    ['memory.atomic.notify', [0xfe, 0x00], 'memarg'],
    ['memory.atomic.wait64', [0xfe, 0x02], 'memarg'],
    ['atomic.fence', [0xfe, 0x03], 'memidx'],
    ['i32.atomic.load', [0xfe, 0x10], 'memarg'],
    ['i32.atomic.store', [0xfe, 0x17], 'memarg'],
    ['i32.atomic.rmw.add', [0xfe, 0x1e], 'memarg'],
    ['i32.atomic.rmw.cmpxchg', [0xfe, 0x48], 'memarg'],
  ];

  test.each(known)('%s is %j with a %s immediate', (name, enc, imm) => {
    const info = opcode(name);
    const w = new ByteWriter();
    // One-byte opcodes are raw bytes; only sub-opcodes after a prefix are LEB128.
    if (info.prefix !== undefined) w.u8(info.prefix).uleb(info.code);
    else w.u8(info.code);
    expect(Array.from(w.finish())).toEqual(enc);
    expect(info.imm).toBe(imm);
  });

  test('the removed SIMD opcodes stay gaps', () => {
    const simd = new Set([...OPCODES.values()].filter((i) => i.prefix === 0xfd).map((i) => i.code));
    for (const gap of [0x9a, 0xa2, 0xa5, 0xa6, 0xaf, 0xb0, 0xb2, 0xb3, 0xb4, 0xbb, 0xc2, 0xc5, 0xc6, 0xcf, 0xd0, 0xd2, 0xd3, 0xd4, 0xe2, 0xee]) {
      expect(simd.has(gap)).toBe(false);
    }
    // 0x00..0xff less those 20 gaps: the whole SIMD proposal as standardised.
    expect(simd.size).toBe(236);
  });

  test('unknown names are refused with the name in the message', () => {
    expect(() => opcode('f64x2.fma')).toThrow("unknown WebAssembly instruction 'f64x2.fma'");
  });
});

describe('natural alignment (what mem() emits by default)', () => {
  const known: Array<[string, number]> = [
    ['i32.load8_u', 1], ['i32.load16_s', 2], ['i64.load32_u', 4], ['i32.load', 4], ['f32.store', 4], ['i64.store', 8],
    ['f64.load', 8], ['i64.store16', 2], ['v128.load', 16], ['v128.store', 16], ['v128.load8x8_s', 8],
    ['v128.load32x2_u', 8], ['v128.load8_splat', 1], ['v128.load64_splat', 8], ['v128.load32_zero', 4],
    ['v128.load16_lane', 2], ['v128.store64_lane', 8], ['memory.atomic.notify', 4], ['memory.atomic.wait32', 4],
    ['memory.atomic.wait64', 8], ['i32.atomic.load', 4], ['i32.atomic.rmw.cmpxchg', 4],
    // Not in the table yet; the rule must hold when they are added.
    ['i64.atomic.load', 8], ['i64.atomic.rmw.add', 8], ['i32.atomic.rmw8.add_u', 1], ['i64.atomic.rmw32.xchg_u', 4],
    ['i64.atomic.load16_u', 2],
  ];
  test.each(known)('%s: %d bytes', (name, bytes) => {
    expect(2 ** naturalAlign(name)).toBe(bytes);
  });
});
