// Distance in units in the last place, as NumPy's assert_array_max_ulp counts
// it: the number of representable values between a and b (so +Inf is one ulp
// past the largest finite value, and -0 and +0 are zero apart). Two NaNs are
// 0 apart; NaN against a number is Infinity.

// One scratch word pair, read back little-endian (a DataView needs no index checks).
const scratch = new DataView(new ArrayBuffer(8));

/** Signed position of a double on the number line as [high, low] words of |bits| with the sign applied to both. */
function ordered64(x: number): [number, number] {
  scratch.setFloat64(0, x, true);
  const lo = scratch.getUint32(0, true);
  const hi = scratch.getUint32(4, true);
  const mag = hi & 0x7fffffff;
  return hi >>> 31 ? [-mag, -lo] : [mag, lo];
}

function ulpDistance64(a: number, b: number): number {
  if (Number.isNaN(a) || Number.isNaN(b)) return Number.isNaN(a) && Number.isNaN(b) ? 0 : Infinity;
  const [ah, al] = ordered64(a);
  const [bh, bl] = ordered64(b);
  // Exact while the high words differ by < 2^21; beyond, a huge distance is all that matters.
  return Math.abs((ah - bh) * 4294967296 + (al - bl));
}

function ordered32(x: number): number {
  scratch.setFloat32(0, x, true);
  const bits = scratch.getUint32(0, true);
  const mag = bits & 0x7fffffff;
  return bits >>> 31 ? -mag : mag;
}

function ulpDistance32(a: number, b: number): number {
  if (Number.isNaN(a) || Number.isNaN(b)) return Number.isNaN(a) && Number.isNaN(b) ? 0 : Infinity;
  return Math.abs(ordered32(a) - ordered32(b));
}

function ulpDistance(a: number, b: number, dtype: 'float64' | 'float32'): number {
  return dtype === 'float64' ? ulpDistance64(a, b) : ulpDistance32(a, b);
}

/** A double from its IEEE bit pattern in hex, e.g. '0x3ff0000000000000'. */
function fromHex64(hex: string): number {
  const v = new DataView(new ArrayBuffer(8));
  v.setBigUint64(0, BigInt(hex));
  return v.getFloat64(0);
}

function fromHex32(hex: string): number {
  const v = new DataView(new ArrayBuffer(4));
  v.setUint32(0, Number(BigInt(hex)));
  return v.getFloat32(0);
}

function toHex64(x: number): string {
  const v = new DataView(new ArrayBuffer(8));
  v.setFloat64(0, x);
  return `0x${v.getBigUint64(0).toString(16).padStart(16, '0')}`;
}

export { ulpDistance, ulpDistance64, ulpDistance32, fromHex64, fromHex32, toHex64 };
