// The reference's random arrays: Philox 4x32-10 (Salmon et al., SC'11; the
// Random123 library's philox4x32, 10 rounds) in plain JS, element by element.
// Element e of a random array is the generator at counter [e, 0, stream0,
// stream1] under the array's key; its words w0..w3 give NumPy's conversions:
// float64 ((w1 * 2^32 + w0) >> 11) * 2^-53, float32 (w0 >>> 8) * 2^-24.
import type { NodeOf } from '../ir/node.js';
import { allocDense } from '../core/dense.js';
import type { Dense } from '../core/dense.js';

const M0 = 0xd2511f53;
const M1 = 0xcd9e8d57;
const W0 = 0x9e3779b9;
const W1 = 0xbb67ae85;

/** The high 32 bits of the 64-bit product of two uint32 (Math.imul gives the low ones). */
function mulhi(a: number, b: number): number {
  const a0 = a & 0xffff;
  const a1 = a >>> 16;
  const b0 = b & 0xffff;
  const b1 = b >>> 16;
  const mid = a1 * b0 + ((a0 * b0) >>> 16);
  const mid2 = a0 * b1 + (mid & 0xffff);
  return (a1 * b1 + Math.floor(mid / 65536) + Math.floor(mid2 / 65536)) >>> 0;
}

/** Philox 4x32-10 of `counter` under `key`: four uint32 words. */
function philox4x32(counter: readonly number[], key: readonly number[]): [number, number, number, number] {
  let [c0, c1, c2, c3] = counter.map((x) => x >>> 0) as [number, number, number, number];
  let k0 = key[0]! >>> 0;
  let k1 = key[1]! >>> 0;
  for (let r = 0; r < 10; r++) {
    if (r > 0) {
      k0 = (k0 + W0) >>> 0;
      k1 = (k1 + W1) >>> 0;
    }
    const hi0 = mulhi(M0, c0);
    const lo0 = Math.imul(M0, c0) >>> 0;
    const hi1 = mulhi(M1, c2);
    const lo1 = Math.imul(M1, c2) >>> 0;
    [c0, c1, c2, c3] = [(hi1 ^ c1 ^ k0) >>> 0, lo1, (hi0 ^ c3 ^ k1) >>> 0, lo0];
  }
  return [c0, c1, c2, c3];
}

/** A random node's values, row-major. */
function randomDense(node: NodeOf<'random'>): Dense {
  const { key, stream } = node.attrs.random;
  const out = allocDense(node.dtype, node.shape);
  const data = out.data;
  const wide = node.dtype === 'float64';
  for (let e = 0; e < data.length; e++) {
    const [w0, w1] = philox4x32([e, 0, stream[0], stream[1]], key);
    data[e] = wide ? w1 * 2 ** -32 + (w0 >>> 11) * 2 ** -53 : (w0 >>> 8) * 2 ** -24;
  }
  return out;
}

export { philox4x32, randomDense };
