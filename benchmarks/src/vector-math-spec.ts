// What the vector-math benchmark measures and the targets it is held to: the
// functions, their input ranges and the speed targets, with no imports, so that
// the report writers (peers/markdown.ts) read them without loading the library.
type Fn = 'exp' | 'expm1' | 'exp2' | 'log' | 'log1p' | 'log2' | 'log10' | 'sin' | 'cos' | 'tan' | 'asin' | 'acos' | 'atan'
  | 'sinh' | 'cosh' | 'tanh' | 'asinh' | 'acosh' | 'atanh' | 'cbrt';

/** Each function over uniform inputs on a range a user meets (inside its domain); V8's form of it where that is not Math.fn(v). */
const FUNCTIONS: ReadonlyArray<{ readonly fn: Fn; readonly lo: number; readonly hi: number; readonly js?: string }> = [
  { fn: 'sin', lo: -100, hi: 100 },
  { fn: 'cos', lo: -100, hi: 100 },
  { fn: 'tan', lo: -100, hi: 100 },
  { fn: 'exp', lo: -100, hi: 100 },
  { fn: 'expm1', lo: -10, hi: 10 },
  { fn: 'exp2', lo: -100, hi: 100, js: '2 ** v' },
  { fn: 'log', lo: 1e-3, hi: 1e3 },
  { fn: 'log1p', lo: 0, hi: 1e3 },
  { fn: 'log2', lo: 1e-3, hi: 1e3 },
  { fn: 'log10', lo: 1e-3, hi: 1e3 },
  { fn: 'asin', lo: -1, hi: 1 },
  { fn: 'acos', lo: -1, hi: 1 },
  { fn: 'atan', lo: -100, hi: 100 },
  { fn: 'sinh', lo: -20, hi: 20 },
  { fn: 'cosh', lo: -20, hi: 20 },
  { fn: 'tanh', lo: -10, hi: 10 },
  { fn: 'asinh', lo: -100, hi: 100 },
  { fn: 'acosh', lo: 1, hi: 100 },
  { fn: 'atanh', lo: -0.999, hi: 0.999 },
  { fn: 'cbrt', lo: -1e3, hi: 1e3 },
];

/** The functions the speed targets name: float64 at least 2.5x V8's Math, float32 at least 5x. */
const BARRED: ReadonlySet<Fn> = new Set(['sin', 'cos', 'exp', 'log', 'tanh', 'atan', 'expm1']);
const BAR_F64 = 2.5;
const BAR_F32 = 5;

interface MathRow {
  readonly fn: Fn;
  /** ns per element, medians over rounds. */
  readonly f64: number;
  readonly f32: number;
  readonly math: number;
  /** NumPy's ufunc over the same range (the peer benchmark measures it, in Python). */
  readonly numpyF64?: number | undefined;
  readonly numpyF32?: number | undefined;
}

/**
 * Targets for the functions that were slowest against V8 (asinh, acosh: about
 * 1x; log1p, log2: under 2x; float32 trig through float64), each per core on
 * its own range: the inverse hyperbolic and log rows on the main table's
 * ranges, the float32 trig rows on [0, 10].
 */
const SLOW_TARGETS: ReadonlyArray<{ readonly fn: Fn; readonly lo: number; readonly hi: number; readonly f64?: number; readonly f32: number }> = [
  { fn: 'asinh', lo: -100, hi: 100, f64: 2, f32: 4 },
  { fn: 'acosh', lo: 1, hi: 100, f64: 2, f32: 4 },
  { fn: 'log1p', lo: 0, hi: 1e3, f64: 2.5, f32: 5 },
  { fn: 'log2', lo: 1e-3, hi: 1e3, f64: 2.5, f32: 5 },
  { fn: 'sin', lo: 0, hi: 10, f32: 5 },
  { fn: 'cos', lo: 0, hi: 10, f32: 5 },
  { fn: 'tan', lo: 0, hi: 10, f32: 5 },
];

/** The input range a function is measured on, as the tables print it. */
function inputsOf(fn: Fn): string {
  const { lo, hi } = FUNCTIONS.find((f) => f.fn === fn)!;
  return `[${lo}, ${hi}]`;
}

/** The barred rows, and how many of them meet each bar. */
function targets(rows: readonly MathRow[]): { readonly barred: readonly MathRow[]; readonly met64: number; readonly met32: number } {
  const barred = rows.filter((r) => BARRED.has(r.fn));
  return {
    barred,
    met64: barred.filter((r) => r.math / r.f64 >= BAR_F64).length,
    met32: barred.filter((r) => r.math / r.f32 >= BAR_F32).length,
  };
}

export { SLOW_TARGETS, FUNCTIONS as VECTOR_MATH_FUNCTIONS, BARRED, BAR_F64, BAR_F32, inputsOf, targets };
export type { Fn, MathRow };
