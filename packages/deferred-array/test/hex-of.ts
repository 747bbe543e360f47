// Test helper: an array's values, computed into an array of the test's own,
// as the hex of their bytes (little-endian, C order, bool as 0/1 bytes), so
// that NaN payloads, -0 and the last bit compare exactly.
import type * as da from '../src/index.js';

const CTORS = {
  float64: Float64Array, float32: Float32Array, int64: BigInt64Array, uint64: BigUint64Array, int32: Int32Array, uint32: Uint32Array, int16: Int16Array, uint16: Uint16Array,
  int8: Int8Array, uint8: Uint8Array, bool: Uint8Array,
} as const;

async function hexOf(x: da.DeferredArray): Promise<string> {
  const out = new CTORS[x.dtype](x.size);
  await x.execute({ out });
  return Buffer.from(out.buffer, out.byteOffset, out.byteLength).toString('hex');
}

export { hexOf };
