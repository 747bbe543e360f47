// NumPy's umath accuracy validation sets (BSD licence), read from the shared
// data folder beside the repository (../shared/data/umath-validation/) and
// never copied into it. Each row: dtype, input and correctly rounded output
// as IEEE bit patterns in hex, and the ulp bound NumPy holds its own
// implementation to.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { MathFn } from './registry.js';
import { fromHex32, fromHex64 } from './ulp.js';

interface ValidationRow {
  readonly dtype: 'float64' | 'float32';
  readonly input: number;
  readonly expected: number;
  readonly ulpBound: number;
  /** 1-based line in the CSV, for messages. */
  readonly line: number;
}

/** The set's name for each function that has one (NumPy spells the inverses arc*). */
const SET_NAME: Partial<Record<MathFn, string>> = {
  exp: 'exp', expm1: 'expm1', exp2: 'exp2', log: 'log', log1p: 'log1p', log2: 'log2', log10: 'log10',
  sin: 'sin', cos: 'cos', tan: 'tan', asin: 'arcsin', acos: 'arccos', atan: 'arctan',
  sinh: 'sinh', cosh: 'cosh', tanh: 'tanh', asinh: 'arcsinh', acosh: 'arccosh', atanh: 'arctanh', cbrt: 'cbrt',
};

/** The shared folder: <repo>/../shared/data/umath-validation (this file sits in <repo>/packages/kernels-wasm/src/math). */
function validationDir(): string {
  // VALIDATION_DIR points elsewhere (a test of the fallback sets it to a folder that does not exist).
  const override = typeof process === 'undefined' ? undefined : process.env['VALIDATION_DIR'];
  if (override) return override.endsWith('/') ? override : `${override}/`;
  return fileURLToPath(new URL('../../../../../shared/data/umath-validation/', import.meta.url));
}

/** Whether the shared validation data is present. */
function hasValidationData(): boolean {
  return existsSync(validationDir());
}

/** The rows for fn, or undefined when NumPy has no set for it or the shared folder is missing. */
function readValidationSet(fn: MathFn): ValidationRow[] | undefined {
  const name = SET_NAME[fn];
  if (name === undefined) return undefined;
  const path = `${validationDir()}umath-validation-set-${name}.csv`;
  if (!existsSync(path)) return undefined;
  const rows: ValidationRow[] = [];
  readFileSync(path, 'utf8').split('\n').forEach((text, i) => {
    const line = text.trim();
    if (line === '' || line.startsWith('#') || line.startsWith('dtype')) return;
    const [dtype, input, expected, bound] = line.split(',');
    if (dtype !== 'np.float64' && dtype !== 'np.float32') return; // float16 rows, if any, are not ours
    const read = dtype === 'np.float64' ? fromHex64 : fromHex32;
    rows.push({
      dtype: dtype === 'np.float64' ? 'float64' : 'float32',
      input: read(input!),
      expected: read(expected!),
      ulpBound: Number(bound),
      line: i + 1,
    });
  });
  return rows;
}

export { readValidationSet, hasValidationData, validationDir, SET_NAME };
export type { ValidationRow };
