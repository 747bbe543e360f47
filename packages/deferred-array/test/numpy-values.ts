// Test helper: a value of the NumPy vector files (scripts/numpy/gen_vectors.py):
// floats as the hex of their IEEE bits in their own width, integers and bools
// as JSON numbers (decimal strings past 2^53).
type Raw = number | string;

const dv = new DataView(new ArrayBuffer(8));

function decodeValue(raw: Raw, dtype: string): number {
  if (typeof raw === 'number') return raw;
  if (dtype === 'float64') {
    dv.setBigUint64(0, BigInt(`0x${raw}`));
    return dv.getFloat64(0);
  }
  if (dtype === 'float32') {
    dv.setUint32(0, parseInt(raw, 16));
    return dv.getFloat32(0);
  }
  return Number(raw);
}

export { decodeValue };
export type { Raw };
