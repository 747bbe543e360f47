// The committed correctly rounded reference vectors (test/vectors/, written by
// scripts/mpmath/generate_vectors.py): rows of (input, [input 2,] expected).
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MATH_ARITY } from './registry.js';
import type { MathFn } from './registry.js';
import { at } from '../internal-error.js';

interface ReferenceVectors {
  readonly a: Float64Array;
  readonly b: Float64Array | undefined;
  readonly expected: Float64Array;
}

function vectorsDir(): string {
  return fileURLToPath(new URL('../../test/vectors/', import.meta.url));
}

/** The vectors for fn in dtype (values widened to f64), or undefined if the file is missing. */
function readReferenceVectors(fn: MathFn, dtype: 'float64' | 'float32'): ReferenceVectors | undefined {
  const path = `${vectorsDir()}${fn}.${dtype}.bin`;
  if (!existsSync(path)) return undefined;
  const bytes = readFileSync(path);
  const buf = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  const flat = dtype === 'float64' ? new Float64Array(buf) : Float64Array.from(new Float32Array(buf));
  const width = MATH_ARITY[fn] + 1;
  const rows = flat.length / width;
  const column = (c: number): Float64Array => Float64Array.from({ length: rows }, (_, i) => at(flat, i * width + c, 'value'));
  return { a: column(0), b: width === 3 ? column(1) : undefined, expected: column(width - 1) };
}

export { readReferenceVectors, vectorsDir };
export type { ReferenceVectors };
