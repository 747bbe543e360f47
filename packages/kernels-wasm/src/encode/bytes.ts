// A growable byte buffer with the WebAssembly binary primitives: LEB128
// integers, little-endian IEEE floats, length-prefixed names and vectors.

const I64_MIN = -(1n << 63n);
const I64_MAX = (1n << 63n) - 1n;

class ByteWriter {
  #buf = new Uint8Array(256);
  #len = 0;

  get length(): number {
    return this.#len;
  }

  #reserve(n: number): void {
    if (this.#len + n <= this.#buf.length) return;
    let cap = this.#buf.length * 2;
    while (cap < this.#len + n) cap *= 2;
    const next = new Uint8Array(cap);
    next.set(this.#buf.subarray(0, this.#len));
    this.#buf = next;
  }

  u8(b: number): this {
    // Masking would turn a bad lane index or flag into a different, valid-looking byte.
    if (!Number.isInteger(b) || b < 0 || b > 0xff) throw new RangeError(`u8: ${b} is not a byte (an integer in 0..255)`);
    this.#reserve(1);
    this.#buf[this.#len++] = b;
    return this;
  }

  bytes(bs: ArrayLike<number>): this {
    this.#reserve(bs.length);
    this.#buf.set(bs, this.#len);
    this.#len += bs.length;
    return this;
  }

  /** Unsigned LEB128 of a non-negative integer below 2^32. */
  uleb(n: number): this {
    if (!Number.isInteger(n) || n < 0 || n > 0xffffffff) {
      throw new RangeError(`uleb: ${n} is not a u32 (an integer in 0..4294967295); indices, counts and sizes must fit in 32 bits`);
    }
    do {
      let b = n & 0x7f;
      n = Math.floor(n / 128);
      if (n !== 0) b |= 0x80;
      this.u8(b);
    } while (n !== 0);
    return this;
  }

  /** Signed LEB128 of an integer in the i64 range (bigint for values past 2^53). */
  sleb(v: number | bigint): this {
    if (typeof v === 'number' && !Number.isInteger(v)) {
      throw new RangeError(`sleb: ${v} is not an integer; constants for i32/i64 must be whole numbers (bigint past 2^53)`);
    }
    let n = BigInt(v);
    if (n < I64_MIN || n > I64_MAX) {
      throw new RangeError(`sleb: ${n} is outside the i64 range; wrap it first (BigInt.asIntN(64, v))`);
    }
    for (;;) {
      const b = Number(n & 0x7fn);
      n >>= 7n;
      const done = (n === 0n && (b & 0x40) === 0) || (n === -1n && (b & 0x40) !== 0);
      this.u8(done ? b : b | 0x80);
      if (done) return this;
    }
  }

  f32(x: number): this {
    const v = new DataView(new ArrayBuffer(4));
    v.setFloat32(0, x, true);
    return this.bytes(new Uint8Array(v.buffer));
  }

  f64(x: number): this {
    const v = new DataView(new ArrayBuffer(8));
    v.setFloat64(0, x, true);
    return this.bytes(new Uint8Array(v.buffer));
  }

  name(s: string): this {
    const utf8 = new TextEncoder().encode(s);
    return this.uleb(utf8.length).bytes(utf8);
  }

  /** Drops what was written after `length`: a failed emit must not leave half an instruction behind. */
  truncate(length: number): this {
    if (!Number.isInteger(length) || length < 0 || length > this.#len) {
      throw new RangeError(`truncate: ${length} is not a length between 0 and ${this.#len}`);
    }
    this.#len = length;
    return this;
  }

  /** A length-prefixed section or vector body written by `fill`. */
  sized(fill: (w: ByteWriter) => void): this {
    const inner = new ByteWriter();
    fill(inner);
    return this.uleb(inner.length).bytes(inner.finish());
  }

  // ArrayBuffer-backed, so the result can go straight to WebAssembly.validate/compile.
  finish(): Uint8Array<ArrayBuffer> {
    return this.#buf.slice(0, this.#len);
  }
}

/** Malformed bytes, found while reading; `offset` is where in the module it was found. */
class WasmDecodeError extends RangeError {
  readonly code = 'WASM_DECODE';
  constructor(readonly offset: number, what: string) {
    super(`malformed WebAssembly at byte ${offset} (0x${offset.toString(16)}): ${what}`);
    this.name = 'WasmDecodeError';
  }
}

/**
 * Reads what ByteWriter writes; used by the disassembler and tests. `base` is
 * where `buf` starts in the whole module, so that errors name true offsets.
 */
class ByteReader {
  #pos = 0;
  constructor(readonly buf: Uint8Array, readonly base = 0) {}

  get pos(): number {
    return this.#pos;
  }

  /** The position in the whole module (base + pos). */
  get offset(): number {
    return this.base + this.#pos;
  }

  get done(): boolean {
    return this.#pos >= this.buf.length;
  }

  /** Throws a WasmDecodeError at `offset` (default: the current position). */
  fail(what: string, offset = this.offset): never {
    throw new WasmDecodeError(offset, what);
  }

  u8(): number {
    if (this.#pos >= this.buf.length) this.fail('unexpected end of input (truncated module or a size field too large)');
    return this.buf[this.#pos++]!;
  }

  bytes(n: number): Uint8Array {
    if (this.#pos + n > this.buf.length) {
      this.fail(`unexpected end of input: ${n} bytes wanted, ${this.buf.length - this.#pos} left`);
    }
    const out = this.buf.subarray(this.#pos, this.#pos + n);
    this.#pos += n;
    return out;
  }

  /** Unsigned LEB128 u32: at most 5 bytes, value below 2^32. */
  uleb(): number {
    const start = this.offset;
    let result = 0;
    let mul = 1;
    for (let i = 0; i < 5; i++) {
      const b = this.u8();
      result += (b & 0x7f) * mul;
      mul *= 128;
      if ((b & 0x80) === 0) {
        if (result > 0xffffffff) this.fail(`LEB128 u32 of value ${result} exceeds 2^32 - 1`, start);
        return result;
      }
    }
    return this.fail('LEB128 u32 longer than 5 bytes', start);
  }

  /** Signed LEB128 of at most `bits` bits (32 for i32, 33 for block types, 64 for i64). */
  sleb(bits = 64): bigint {
    const start = this.offset;
    const maxBytes = Math.ceil(bits / 7);
    let result = 0n;
    let shift = 0n;
    for (let i = 0; i < maxBytes; i++) {
      const b = this.u8();
      result |= BigInt(b & 0x7f) << shift;
      shift += 7n;
      if ((b & 0x80) === 0) {
        if (b & 0x40) result -= 1n << shift;
        if (result !== BigInt.asIntN(bits, result)) this.fail(`LEB128 s${bits} of value ${result} is out of range`, start);
        return result;
      }
    }
    return this.fail(`LEB128 s${bits} longer than ${maxBytes} bytes`, start);
  }

  f32(): number {
    return new DataView(this.bytes(4).slice().buffer).getFloat32(0, true);
  }

  f64(): number {
    return new DataView(this.bytes(8).slice().buffer).getFloat64(0, true);
  }

  name(): string {
    const start = this.offset;
    const utf8 = this.bytes(this.uleb());
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(utf8);
    } catch {
      return this.fail('a name that is not valid UTF-8', start);
    }
  }
}

export { ByteWriter, ByteReader, WasmDecodeError };
