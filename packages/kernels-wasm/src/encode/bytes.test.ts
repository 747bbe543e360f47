import { ByteReader, ByteWriter, WasmDecodeError } from './bytes.js';

const bytesOf = (fill: (w: ByteWriter) => void): number[] => {
  const w = new ByteWriter();
  fill(w);
  return Array.from(w.finish());
};

describe('unsigned LEB128', () => {
  const known: Array<[number, number[]]> = [
    [0, [0x00]],
    [1, [0x01]],
    [127, [0x7f]],
    [128, [0x80, 0x01]],
    [255, [0xff, 0x01]],
    [16384, [0x80, 0x80, 0x01]],
    [624485, [0xe5, 0x8e, 0x26]],
    [2 ** 31, [0x80, 0x80, 0x80, 0x80, 0x08]],
    [2 ** 32 - 1, [0xff, 0xff, 0xff, 0xff, 0x0f]],
  ];

  test.each(known)('%d encodes as %j and reads back', (n, enc) => {
    expect(bytesOf((w) => w.uleb(n))).toEqual(enc);
    const r = new ByteReader(new Uint8Array(enc));
    expect(r.uleb()).toBe(n);
    expect(r.done).toBe(true);
  });

  test.each([-1, 2 ** 32, 1.5, NaN])('the writer refuses %p', (n) => {
    expect(() => new ByteWriter().uleb(n)).toThrow(/is not a u32/);
  });

  test('the reader accepts a padded (non-minimal) encoding, as the spec does', () => {
    expect(new ByteReader(new Uint8Array([0x85, 0x80, 0x80, 0x00])).uleb()).toBe(5);
  });

  test('the reader refuses more than 5 bytes, naming the start offset', () => {
    const r = new ByteReader(new Uint8Array([0x80, 0x80, 0x80, 0x80, 0x80, 0x01]), 40);
    expect(() => r.uleb()).toThrow(WasmDecodeError);
    expect(() => new ByteReader(new Uint8Array([0x80, 0x80, 0x80, 0x80, 0x80, 0x01]), 40).uleb())
      .toThrow('malformed WebAssembly at byte 40 (0x28): LEB128 u32 longer than 5 bytes');
  });

  test('the reader refuses values past 2^32 - 1', () => {
    expect(() => new ByteReader(new Uint8Array([0xff, 0xff, 0xff, 0xff, 0x1f])).uleb()).toThrow(/exceeds 2\^32 - 1/);
  });

  test('a truncated encoding names the byte where input ran out', () => {
    try {
      new ByteReader(new Uint8Array([0x80, 0x80]), 7).uleb();
      throw new Error('did not throw');
    } catch (e) {
      expect(e).toBeInstanceOf(WasmDecodeError);
      expect(e).toBeInstanceOf(RangeError); // what ByteReader threw before WasmDecodeError existed
      expect((e as WasmDecodeError).offset).toBe(9);
      expect((e as WasmDecodeError).code).toBe('WASM_DECODE');
      expect((e as Error).message).toMatch(/unexpected end of input/);
    }
  });
});

describe('signed LEB128', () => {
  const known: Array<[bigint, number[]]> = [
    [0n, [0x00]],
    [1n, [0x01]],
    [-1n, [0x7f]],
    [63n, [0x3f]],
    [64n, [0xc0, 0x00]],
    [-64n, [0x40]],
    [-65n, [0xbf, 0x7f]],
    [127n, [0xff, 0x00]],
    [128n, [0x80, 0x01]],
    [-128n, [0x80, 0x7f]],
    [-123456n, [0xc0, 0xbb, 0x78]],
    [624485n, [0xe5, 0x8e, 0x26]],
    [2147483647n, [0xff, 0xff, 0xff, 0xff, 0x07]],
    [-2147483648n, [0x80, 0x80, 0x80, 0x80, 0x78]],
    [2n ** 32n - 1n, [0xff, 0xff, 0xff, 0xff, 0x0f]],
    [2n ** 63n - 1n, [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x00]],
    [-(2n ** 63n), [0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x7f]],
  ];

  test.each(known)('%p encodes as %j and reads back', (v, enc) => {
    expect(bytesOf((w) => w.sleb(v))).toEqual(enc);
    const r = new ByteReader(new Uint8Array(enc));
    expect(r.sleb()).toBe(v);
    expect(r.done).toBe(true);
  });

  test('numbers and bigints encode alike', () => {
    expect(bytesOf((w) => w.sleb(-123456))).toEqual(bytesOf((w) => w.sleb(-123456n)));
    expect(bytesOf((w) => w.sleb(2 ** 53))).toEqual(bytesOf((w) => w.sleb(2n ** 53n)));
  });

  test.each([[1.5], [NaN], [Infinity], [2n ** 63n], [-(2n ** 63n) - 1n]])('the writer refuses %p', (v) => {
    expect(() => new ByteWriter().sleb(v)).toThrow(RangeError);
  });

  test('an i32 read refuses values outside the i32 range', () => {
    const enc = new Uint8Array(bytesOf((w) => w.sleb(2n ** 31n)));
    expect(new ByteReader(enc).sleb(64)).toBe(2n ** 31n);
    expect(() => new ByteReader(enc).sleb(32)).toThrow(/LEB128 s32 of value 2147483648 is out of range/);
  });

  test('an i32 read refuses more than 5 bytes; an i64 read more than 10', () => {
    expect(() => new ByteReader(new Uint8Array([0x80, 0x80, 0x80, 0x80, 0x80, 0x00])).sleb(32)).toThrow(/longer than 5 bytes/);
    expect(() => new ByteReader(new Uint8Array(11).fill(0x80, 0, 10)).sleb(64)).toThrow(/longer than 10 bytes/);
  });
});

describe('floats', () => {
  test('f32 and f64 are little-endian IEEE 754', () => {
    expect(bytesOf((w) => w.f32(1.5))).toEqual([0x00, 0x00, 0xc0, 0x3f]);
    expect(bytesOf((w) => w.f32(-2))).toEqual([0x00, 0x00, 0x00, 0xc0]);
    expect(bytesOf((w) => w.f64(1))).toEqual([0, 0, 0, 0, 0, 0, 0xf0, 0x3f]);
    expect(bytesOf((w) => w.f64(-0))).toEqual([0, 0, 0, 0, 0, 0, 0, 0x80]);
    expect(bytesOf((w) => w.f64(Infinity))).toEqual([0, 0, 0, 0, 0, 0, 0xf0, 0x7f]);
  });

  test.each([0, -0, 1, -1.25, 0.1, 1e300, -Infinity, Number.MIN_VALUE])('f64 %p reads back exactly', (x) => {
    const r = new ByteReader(new Uint8Array(bytesOf((w) => w.f64(x))));
    expect(Object.is(r.f64(), x)).toBe(true);
  });

  test('f32 rounds to the nearest f32 and reads back as that', () => {
    const r = new ByteReader(new Uint8Array(bytesOf((w) => w.f32(0.1).f32(-0).f32(3.4e38))));
    expect(r.f32()).toBe(Math.fround(0.1));
    expect(Object.is(r.f32(), -0)).toBe(true);
    expect(r.f32()).toBe(Math.fround(3.4e38));
  });

  test('NaN survives as NaN', () => {
    expect(new ByteReader(new Uint8Array(bytesOf((w) => w.f64(NaN)))).f64()).toBeNaN();
  });
});

describe('ByteWriter', () => {
  test('u8 refuses anything but a byte rather than masking it', () => {
    expect(() => new ByteWriter().u8(256)).toThrow(/256 is not a byte/);
    expect(() => new ByteWriter().u8(-1)).toThrow(RangeError);
    expect(() => new ByteWriter().u8(1.5)).toThrow(RangeError);
  });

  test('grows past its first buffer without losing bytes', () => {
    const w = new ByteWriter();
    for (let i = 0; i < 1000; i++) w.u8(i & 0xff);
    const out = w.finish();
    expect(out.length).toBe(1000);
    expect(w.length).toBe(1000);
    expect(out[999]).toBe(999 & 0xff);
    expect(out.buffer).toBeInstanceOf(ArrayBuffer);
  });

  test('names are length-prefixed UTF-8, and read back', () => {
    expect(bytesOf((w) => w.name('ab'))).toEqual([2, 0x61, 0x62]);
    expect(bytesOf((w) => w.name('é'))).toEqual([2, 0xc3, 0xa9]);
    const r = new ByteReader(new Uint8Array(bytesOf((w) => w.name('kernel_ü').name(''))));
    expect(r.name()).toBe('kernel_ü');
    expect(r.name()).toBe('');
  });

  test('truncate() drops what was written after a length', () => {
    const w = new ByteWriter().u8(1).u8(2).u8(3).truncate(1).u8(9);
    expect(Array.from(w.finish())).toEqual([1, 9]);
    expect(() => w.truncate(3)).toThrow('truncate: 3 is not a length between 0 and 2');
  });

  test('sized() prefixes the byte length of what it wrote', () => {
    expect(bytesOf((w) => w.sized((s) => s.uleb(624485).u8(1)))).toEqual([4, 0xe5, 0x8e, 0x26, 1]);
  });
});

describe('ByteReader', () => {
  test('bytes() past the end says how many were wanted and left', () => {
    expect(() => new ByteReader(new Uint8Array(3), 10).bytes(5)).toThrow('malformed WebAssembly at byte 10 (0xa): unexpected end of input: 5 bytes wanted, 3 left');
  });

  test('a name that is not UTF-8 is an error at the name', () => {
    expect(() => new ByteReader(new Uint8Array([2, 0xc3, 0x28]), 101).name()).toThrow(/byte 101 .*not valid UTF-8/);
  });

  test('offset is base + pos', () => {
    const r = new ByteReader(new Uint8Array([1, 2, 3]), 50);
    r.u8();
    expect([r.pos, r.offset]).toEqual([1, 51]);
  });
});
