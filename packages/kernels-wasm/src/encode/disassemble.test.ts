import fc from 'fast-check';
import { ByteReader, ByteWriter, WasmDecodeError } from './bytes.js';
import { disassemble, disassembleFunction } from './disassemble.js';
import { FunctionBuilder } from './function-builder.js';
import { ModuleBuilder } from './module-builder.js';
import { addVectorAdd } from './test-modules.js';
import type { ValType } from './types.js';

const SHARED = { module: 'env', name: 'memory', initial: 1, maximum: 16, shared: true } as const;

const VECTOR_ADD_TEXT = `(func $add (param i32 i32 i32 i32)
  (local i32)
  block
    loop
      local.get 4
      local.get 3
      i32.const 3
      i32.shl
      i32.ge_u
      br_if 1
      local.get 2
      local.get 4
      i32.add
      local.get 0
      local.get 4
      i32.add
      v128.load align=16 offset=0
      local.get 1
      local.get 4
      i32.add
      v128.load align=16 offset=0
      f64x2.add
      v128.store align=16 offset=0
      local.get 4
      i32.const 16
      i32.add
      local.set 4
      br 0
    end
  end
)`;

/** A one-function module whose body is `fill`; returns its bytes. */
function oneFunction(fill: (f: FunctionBuilder) => void, results: ValType[] = []): Uint8Array<ArrayBuffer> {
  const mb = new ModuleBuilder();
  mb.importMemory(SHARED);
  const [, f] = mb.func('f', [], results);
  fill(f);
  return mb.toBytes();
}

/** The instruction lines of function f, without indentation, header, locals or closing paren. */
function body(bytes: Uint8Array): string[] {
  return disassembleFunction(bytes, 'f').split('\n').slice(1, -1).map((l) => l.trim()).filter((l) => !l.startsWith('(local'));
}

/** Where `needle` first occurs in `bytes` (test helper for patching). */
function find(bytes: Uint8Array, needle: number[]): number {
  for (let i = 0; i + needle.length <= bytes.length; i++) {
    if (needle.every((b, j) => bytes[i + j] === b)) return i;
  }
  throw new Error(`test: ${needle} not found`);
}

function decodeError(run: () => unknown): WasmDecodeError {
  try {
    run();
  } catch (e) {
    if (e instanceof WasmDecodeError) return e;
    throw e;
  }
  throw new Error('expected a WasmDecodeError; nothing was thrown');
}

describe('disassembleFunction', () => {
  test('prints one instruction per line, indented by block depth', () => {
    const mb = new ModuleBuilder();
    mb.importMemory(SHARED);
    addVectorAdd(mb);
    const bytes = mb.toBytes();
    expect(WebAssembly.validate(bytes)).toBe(true);
    expect(disassembleFunction(bytes, 'add')).toBe(VECTOR_ADD_TEXT);
  });

  test('if/else/end line up with their if; block results are shown', () => {
    const bytes = oneFunction((f) => f.op('i32.const', 1).if('f64').op('f64.const', 1).else().op('f64.const', 2).end(), ['f64']);
    expect(WebAssembly.validate(bytes)).toBe(true);
    expect(disassembleFunction(bytes, 'f')).toBe(['(func $f (result f64)', '  i32.const 1', '  if (result f64)',
      '    f64.const 1', '  else', '    f64.const 2', '  end', ')'].join('\n'));
  });

  test('a block type given as a type index prints as (type N)', () => {
    const bytes = oneFunction((f) => f.block().end()).slice();
    bytes[find(bytes, [0x02, 0x40, 0x0b]) + 1] = 0x00; // type 0 of the module
    expect(body(bytes)).toEqual(['block (type 0)', 'end']);
  });

  test('names the function asked for, by name section or export name', () => {
    const mb = new ModuleBuilder();
    mb.func('first', [], []);
    const [, g] = mb.func('second', ['f64'], ['f64'], false);
    g.op('local.get', 0);
    const bytes = mb.toBytes();
    expect(disassembleFunction(bytes, 'second')).toBe('(func $second (param f64) (result f64)\n  local.get 0\n)');
    expect(disassembleFunction(bytes, 'first')).toBe('(func $first\n)');
  });

  test('many locals get a comment with the index range of each type', () => {
    const mb = new ModuleBuilder();
    const [, g] = mb.func('f', ['i32', 'i32'], []);
    for (const t of ['i32', 'i32', 'i32', 'f64', 'v128', 'v128'] as const) g.local(t);
    expect(disassembleFunction(mb.toBytes(), 'f').split('\n')[1]).toBe('  (local i32 i32 i32 f64 v128 v128) ;; 2..4 i32, 5 f64, 6..7 v128');
  });

  test('an unknown name lists the functions there are', () => {
    const mb = new ModuleBuilder();
    mb.importFunction('env', 'log', ['f64'], []);
    mb.func('a', [], []);
    mb.func('b', [], []);
    const bytes = mb.toBytes();
    expect(() => disassembleFunction(bytes, 'c')).toThrow("no function named 'c' in this module; it defines: a, b");
    expect(() => disassembleFunction(bytes, 'env.log')).toThrow("function 'env.log' is imported, so this module holds no body for it");
  });
});

describe('disassemble (a whole module)', () => {
  test('imports, functions, exports, with call targets named', () => {
    const mb = new ModuleBuilder();
    const log = mb.importFunction('env', 'log', ['f64'], []);
    mb.importMemory(SHARED);
    const [, f] = mb.func('main', [], []);
    f.op('f64.const', 2.5).op('call', log);
    const [, g] = mb.func('hidden kernel', [], ['i32'], false);
    g.op('memory.size');
    const bytes = mb.toBytes();
    expect(WebAssembly.validate(bytes)).toBe(true);
    expect(disassemble(bytes)).toBe(`(module
  (import "env" "log" (func $env.log (param f64)))
  (import "env" "memory" (memory 1 16 shared))
  (func $main
    f64.const 2.5
    call $env.log
  )
  (func $"hidden kernel" (result i32)
    memory.size
  )
  (export "main" (func $main))
)`);
  });

  test('without a name section, export names and then f<index> stand in', () => {
    const mb = new ModuleBuilder();
    const [, f] = mb.func('shown', [], []);
    const [inner] = mb.func('inner', [], [], false);
    f.op('call', inner);
    const full = mb.toBytes();
    // ModuleBuilder writes the 'name' custom section last: id 0, a one-byte size, then "name".
    const stripped = full.slice(0, find(full, [0x04, 0x6e, 0x61, 0x6d, 0x65]) - 2);
    expect(WebAssembly.validate(stripped)).toBe(true);
    expect(disassemble(stripped)).toContain('(func $shown\n    call $f1\n  )\n  (func $f1\n  )');
  });

  test('an empty module prints as (module)', () => {
    expect(disassemble(new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]))).toBe('(module\n)');
  });
});

describe('immediates round trip through the disassembler', () => {
  test('memarg: every legal alignment, offsets up to 2^32 - 1, printed with the alignment in bytes', () => {
    const bytes = oneFunction((f) => {
      for (const align of [0, 1, 2, 3]) f.op('i32.const', 0).mem('f64.load', { align, offset: 7 }).op('drop');
      f.op('i32.const', 0).mem('i32.load8_u', { offset: 2 ** 32 - 1 }).op('drop');
    });
    expect(WebAssembly.validate(bytes)).toBe(true);
    expect(body(bytes).filter((l) => l.includes('load'))).toEqual([
      'f64.load align=1 offset=7', 'f64.load align=2 offset=7', 'f64.load align=4 offset=7', 'f64.load align=8 offset=7',
      'i32.load8_u align=1 offset=4294967295',
    ]);
  });

  test('lanes and memarg+lane', () => {
    const bytes = oneFunction((f) => {
      f.v128i32(0).op('i8x16.extract_lane_u', 15).op('drop');
      f.op('i32.const', 8).v128i32(0).mem('v128.load16_lane', { offset: 4 }, 7).op('f64x2.extract_lane', 1).op('drop');
      f.op('i32.const', 8).v128i32(0).mem('v128.store32_lane', { align: 1 }, 3);
    });
    expect(WebAssembly.validate(bytes)).toBe(true);
    expect(body(bytes).filter((l) => /lane/.test(l))).toEqual([
      'i8x16.extract_lane_u 15', 'v128.load16_lane align=2 offset=4 7', 'f64x2.extract_lane 1', 'v128.store32_lane align=2 offset=0 3',
    ]);
  });

  test.each([
    [0, '0'], [-1, '-1'], [2147483647, '2147483647'], [-2147483648, '-2147483648'],
    [0xffffffff, '-1'], // i32 constants are bit patterns: u32 values wrap to their signed reading
  ])('i32.const %p prints %s', (value, text) => {
    expect(body(oneFunction((f) => f.op('i32.const', value).op('drop')))[0]).toBe(`i32.const ${text}`);
  });

  test.each([
    [0n, '0'], [-1n, '-1'], [2n ** 63n - 1n, '9223372036854775807'], [-(2n ** 63n), '-9223372036854775808'],
    [2n ** 64n - 1n, '-1'], [1234567890123n, '1234567890123'],
  ])('i64.const %p prints %s', (value, text) => {
    expect(body(oneFunction((f) => f.op('i64.const', value).op('drop')))[0]).toBe(`i64.const ${text}`);
  });

  test.each([
    [0.1, '0.1'], [-0, '-0'], [1.5, '1.5'], [Infinity, 'inf'], [-Infinity, '-inf'], [NaN, 'nan'],
    [3.4028234663852886e38, '3.4028235e+38'], [1e-45, '1e-45'], [16777217, '16777216'],
  ])('f32.const %p prints %s (the shortest decimal that reads back as the same f32)', (value, text) => {
    expect(body(oneFunction((f) => f.op('f32.const', value).op('drop')))[0]).toBe(`f32.const ${text}`);
  });

  test.each([
    [0.1, '0.1'], [-0, '-0'], [-123.456, '-123.456'], [1e-300, '1e-300'], [5e-324, '5e-324'], [-Infinity, '-inf'], [NaN, 'nan'],
  ])('f64.const %p prints %s', (value, text) => {
    expect(body(oneFunction((f) => f.op('f64.const', value).op('drop')))[0]).toBe(`f64.const ${text}`);
  });

  test('random i32, i64, f32 and f64 constants read back from the text', () => {
    fc.assert(fc.property(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
      fc.float({ noNaN: true }), fc.double({ noNaN: true }), (i, l, s, d) => {
        const lines = body(oneFunction((f) => f.op('i32.const', i).op('i64.const', l).op('f32.const', s).op('f64.const', d)
          .op('drop').op('drop').op('drop').op('drop')));
        const num = (line: string): number => {
          const t = line.split(' ')[1]!;
          return t === 'inf' ? Infinity : t === '-inf' ? -Infinity : Number(t);
        };
        expect(num(lines[0]!)).toBe(i);
        expect(BigInt(lines[1]!.split(' ')[1]!)).toBe(l);
        expect(Object.is(Math.fround(num(lines[2]!)), s)).toBe(true);
        expect(Object.is(num(lines[3]!), d)).toBe(true);
      }), { numRuns: 200 });
  });

  test.each([
    ['f64 splat', (f: FunctionBuilder) => f.v128f64(1.5, -2), 'v128.const f64x2 1.5 -2'],
    ['-inf (a max reduction start)', (f: FunctionBuilder) => f.v128f64(-Infinity), 'v128.const f64x2 -inf -inf'],
    ['f32 lanes', (f: FunctionBuilder) => f.v128f32(0.1, 2, -3, 4e10), 'v128.const f32x4 0.1 2 -3 40000000000'],
    ['small ints', (f: FunctionBuilder) => f.v128i32(1, -2, 3, 65535), 'v128.const i32x4 1 -2 3 65535'],
    ['zero', (f: FunctionBuilder) => f.v128i32(0), 'v128.const i32x4 0 0 0 0'],
    ['i64 lanes', (f: FunctionBuilder) => f.v128i64(7n, -1n), 'v128.const i32x4 7 0 -1 -1'],
    ['a sign mask', (f: FunctionBuilder) => f.v128i32(0x7fffffff), 'v128.const i32x4 0x7fffffff 0x7fffffff 0x7fffffff 0x7fffffff'],
  ])('v128.const: %s', (_, emit, text) => {
    expect(body(oneFunction((f) => emit(f).op('drop')))[0]).toBe(text);
  });

  test('any 16 bytes of v128.const read back from the text', () => {
    const parse = (line: string): Uint8Array => {
      const [, shape, ...lanes] = line.split(' '); // v128.const <shape> <lanes>
      const num = (t: string): number => (t === 'inf' ? Infinity : t === '-inf' ? -Infinity : Number(t));
      if (shape === 'f64x2') return new Uint8Array(new Float64Array(lanes.map(num)).buffer);
      if (shape === 'f32x4') return new Uint8Array(new Float32Array(lanes.map(num)).buffer);
      return new Uint8Array(new Int32Array(lanes.map(Number)).buffer);
    };
    fc.assert(fc.property(fc.uint8Array({ minLength: 16, maxLength: 16 }), (raw) => {
      const text = body(oneFunction((f) => f.v128const(raw).op('drop')))[0]!;
      if (!text.includes('nan')) expect(Array.from(parse(text))).toEqual(Array.from(raw));
    }), { numRuns: 300 });
    // And the shapes that do print as floats, built from floats, so the float branches are exercised.
    fc.assert(fc.property(fc.double({ noNaN: true }), fc.double({ noNaN: true }), (a, b) => {
      const raw = new Uint8Array(new Float64Array([a, b]).buffer);
      const text = body(oneFunction((f) => f.v128const(raw).op('drop')))[0]!;
      expect(Array.from(parse(text))).toEqual(Array.from(raw));
    }), { numRuns: 300 });
  });

  test('shuffle, br_table, call_indirect, memory.copy', () => {
    const lanes = [31, 0, 30, 1, 29, 2, 28, 3, 27, 4, 26, 5, 25, 6, 24, 7];
    const bytes = oneFunction((f) => {
      f.v128i32(0).v128i32(0).shuffle(lanes).op('drop');
      f.block().block().op('i32.const', 0).brTable([1, 0, 1], 0).end().end();
      f.op('i32.const', 0).op('i32.const', 0).op('i32.const', 0).op('memory.copy');
      f.op('i32.const', 0).op('call_indirect', 0, 3);
    });
    expect(body(bytes)).toEqual(expect.arrayContaining([
      `i8x16.shuffle ${lanes.join(' ')}`, 'br_table 1 0 1 0', 'memory.copy', 'call_indirect 3 (type 0)',
    ]));
  });
});

describe('malformed input is refused with the byte offset', () => {
  const good = (): Uint8Array<ArrayBuffer> => oneFunction((f) => f.op('nop'));

  test('not a module at all', () => {
    const e = decodeError(() => disassemble(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8])));
    expect(e.offset).toBe(0);
    expect(e.message).toBe('malformed WebAssembly at byte 0 (0x0): not a WebAssembly module: the magic bytes 00 61 73 6d are missing');
    expect(() => disassemble(new Uint8Array([0, 0x61, 0x73]))).toThrow(/8 header bytes; got 3/);
  });

  test('a binary version other than 1', () => {
    const bytes = good().slice();
    bytes[4] = 2;
    expect(decodeError(() => disassemble(bytes)).message).toMatch(/byte 4 .*unsupported binary version/);
  });

  test('a module cut short anywhere is refused exactly when WebAssembly refuses it', () => {
    // Cuts at section boundaries leave valid (smaller) modules; every other cut must fail cleanly.
    const bytes = good();
    for (let n = 0; n < bytes.length; n++) {
      const cut = bytes.slice(0, n);
      let decoded = true;
      try {
        disassemble(cut);
      } catch (e) {
        expect(e).toBeInstanceOf(WasmDecodeError);
        decoded = false;
      }
      expect([n, decoded]).toEqual([n, WebAssembly.validate(cut)]);
    }
  });

  test('an opcode missing from OPCODES, one-byte or prefixed, named with its offset', () => {
    const one = oneFunction((f) => f.op('nop')).slice();
    const at = find(one, [0x01, 0x0b, 0x00]); // nop, end, then the name section
    one[at] = 0x06; // reserved (exception handling's try), not in the table
    const e1 = decodeError(() => disassemble(one));
    expect(e1.offset).toBe(at);
    expect(e1.message).toContain('unknown opcode 0x06; decodable instructions are those in OPCODES (encode/opcodes.ts)');

    const two = oneFunction((f) => f.v128i32(0).v128i32(0).op('f64x2.add').op('drop')).slice();
    const at2 = find(two, [0xfd, 0xf0, 0x01]);
    two[at2 + 1] = 0x9a; // 0xfd 0x9a 0x01 is a gap left by a removed SIMD opcode
    const e2 = decodeError(() => disassembleFunction(two, 'f'));
    expect(e2.offset).toBe(at2);
    expect(e2.message).toContain('unknown opcode 0xfd 0x9a');
  });

  test('a body without its final end, or with bytes after it', () => {
    const noEnd = oneFunction((f) => f.op('nop')).slice();
    noEnd[find(noEnd, [0x01, 0x0b, 0x00]) + 1] = 0x01; // the final end becomes a nop
    expect(() => disassemble(noEnd)).toThrow(/in function \$f: the body runs out before its final end/);

    const early = oneFunction((f) => f.op('nop')).slice();
    early[find(early, [0x01, 0x0b, 0x00])] = 0x0b; // an end before the final one
    expect(() => disassemble(early)).toThrow(/in function \$f: 1 byte\(s\) follow the final end/);
  });

  test('else outside an if', () => {
    const bytes = oneFunction((f) => f.block().op('nop').end()).slice();
    const at = find(bytes, [0x01, 0x0b, 0x0b]);
    bytes[at] = 0x05;
    const e = decodeError(() => disassemble(bytes));
    expect(e.offset).toBe(at);
    expect(e.message).toContain('else outside an if');
  });

  test('function and code sections that disagree', () => {
    const w = new ByteWriter().bytes([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);
    w.u8(1).sized((s) => s.uleb(1).u8(0x60).uleb(0).uleb(0));
    w.u8(3).sized((s) => s.uleb(2).uleb(0).uleb(0));
    w.u8(10).sized((s) => s.uleb(1).sized((b) => b.uleb(0).u8(0x0b)));
    expect(() => disassemble(w.finish())).toThrow(/the function section declares 2 functions but the code section has 1 bodies/);
  });

  test('an unknown section id, a bad value type, a type index out of range', () => {
    const header = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];
    expect(decodeError(() => disassemble(new Uint8Array([...header, 0x20, 0x00]))).message).toMatch(/byte 8 .*unknown section id 32/);
    const badType = new ByteWriter().bytes(header).u8(1).sized((s) => s.uleb(1).u8(0x60).uleb(1).u8(0x42).uleb(0)).finish();
    expect(decodeError(() => disassemble(badType)).message).toMatch(/byte 13 .*unknown value type 0x42/);
    const badIndex = new ByteWriter().bytes(header).u8(1).sized((s) => s.uleb(0)).u8(3).sized((s) => s.uleb(1).uleb(5))
      .u8(10).sized((s) => s.uleb(1).sized((b) => b.uleb(0).u8(0x0b))).finish();
    expect(() => disassemble(badIndex)).toThrow(/function 0 names type 5, but there are 0 types/);
  });

  test('an alignment exponent no access could have', () => {
    const bytes = oneFunction((f) => f.op('i32.const', 0).mem('f64.load', { offset: 0 }).op('drop')).slice();
    const at = find(bytes, [0x2b, 0x03, 0x00]) + 1;
    bytes[at] = 0x3f; // 2^63
    expect(decodeError(() => disassemble(bytes)).offset).toBe(at);
  });

  test('a br_table whose label count overruns the body', () => {
    const bytes = oneFunction((f) => f.block().op('i32.const', 0).brTable([], 0).end()).slice();
    const at = find(bytes, [0x0e, 0x00, 0x00]) + 1;
    bytes.set([0xff, 0xff], at); // a count of 16383 (and the default label swallowed)
    expect(() => disassemble(bytes)).toThrow(WasmDecodeError);
  });

  test('a section whose size overruns the module', () => {
    const bytes = good().slice();
    bytes[9] = 0x7f; // the type section claims 127 bytes
    expect(decodeError(() => disassemble(bytes)).message).toMatch(/unexpected end of input: 127 bytes wanted/);
  });

  test('errors name offsets within the whole module, not within a section', () => {
    const bytes = oneFunction((f) => f.op('nop')).slice();
    const at = find(bytes, [0x01, 0x0b, 0x00]);
    bytes[at] = 0xfc; // nop, end -> 0xfc 0x0c (table.init), which the table lacks
    bytes[at + 1] = 0x0c;
    const e = decodeError(() => disassemble(bytes));
    expect(e.offset).toBe(at);
    expect(new ByteReader(bytes).buf[e.offset]).toBe(0xfc);
  });
});
