// C99 Annex F special cases: NaN, infinities, signed zeros, subnormals,
// overflow and underflow, for both lane types.
import { createMathRunner } from './harness.js';
import { MATH_ARITY, isMathAvailable } from './index.js';
import type { MathFn } from './index.js';
import { ulpDistance } from './ulp.js';

const MAX = Number.MAX_VALUE;
const MIN_NORMAL = 2.2250738585072014e-308;
const SUB = 5e-324;
const INF = Infinity;
const PIO2 = Math.PI / 2;

/**
 * [fn, inputs, expected(, ulp tolerance)] for float64; float32 rows are derived where the value carries over.
 * Finite expected values are correctly rounded (scripts/mpmath/reference.py); the tolerance defaults to 0.
 */
type Row = readonly [MathFn, readonly number[], number, number?];

const ROWS: readonly Row[] = [
  ['exp', [NaN], NaN], ['exp', [0], 1], ['exp', [-0], 1], ['exp', [INF], INF], ['exp', [-INF], 0],
  ['exp', [710], INF], ['exp', [1000], INF], ['exp', [MAX], INF], ['exp', [-746], 0], ['exp', [-MAX], 0],
  ['exp', [-745.1332191019411], SUB], ['exp', [709.782712893384], 1.7976931348622732e308], ['exp', [SUB], 1], ['exp', [-SUB], 1],
  ['exp', [-708.3964185322641], 2.2250738585072626e-308],
  ['log', [NaN], NaN], ['log', [1], 0], ['log', [0], -INF], ['log', [-0], -INF], ['log', [-1], NaN], ['log', [-INF], NaN],
  ['log', [INF], INF], ['log', [-SUB], NaN], ['log', [SUB], -744.4400719213812], ['log', [MIN_NORMAL], -708.3964185322641],
  ['log', [MAX], 709.782712893384], ['log', [Math.E], 1],
  ['sin', [NaN], NaN], ['sin', [0], 0], ['sin', [-0], -0], ['sin', [INF], NaN], ['sin', [-INF], NaN], ['sin', [SUB], SUB],
  ['sin', [-SUB], -SUB], ['sin', [-MIN_NORMAL], -MIN_NORMAL], ['sin', [1e-300], 1e-300], ['sin', [MAX], 0.004961954789184062],
  ['sin', [1e22], -0.8522008497671888], ['sin', [Math.PI], 1.2246467991473532e-16], ['sin', [-Math.PI / 2], -1],
  ['cos', [NaN], NaN], ['cos', [0], 1], ['cos', [-0], 1], ['cos', [INF], NaN], ['cos', [-INF], NaN], ['cos', [SUB], 1],
  ['cos', [MAX], -0.9999876894265599], ['cos', [1e22], 0.523214785395139], ['cos', [Math.PI], -1],
  ['cos', [Math.PI / 2], 6.123233995736766e-17],
  ['tan', [NaN], NaN], ['tan', [0], 0], ['tan', [-0], -0], ['tan', [INF], NaN], ['tan', [-INF], NaN], ['tan', [SUB], SUB],
  ['tan', [-SUB], -SUB], ['tan', [Math.PI / 4], 0.9999999999999999], ['tan', [1e22], -1.6287782256068988, 1],
  ['tan', [MAX], -0.004962015874444895], ['tan', [Math.PI / 2], 1.633123935319537e16], ['tan', [-Math.PI / 2], -1.633123935319537e16],
  ['expm1', [NaN], NaN], ['expm1', [0], 0], ['expm1', [-0], -0], ['expm1', [INF], INF], ['expm1', [-INF], -1],
  ['expm1', [710], INF], ['expm1', [MAX], INF], ['expm1', [-40], -1], ['expm1', [-MAX], -1], ['expm1', [SUB], SUB],
  ['expm1', [-SUB], -SUB], ['expm1', [709.78], 1.7928227943945155e308], ['expm1', [-1], -0.6321205588285577],
  ['exp2', [NaN], NaN], ['exp2', [0], 1], ['exp2', [-0], 1], ['exp2', [INF], INF], ['exp2', [-INF], 0], ['exp2', [1024], INF],
  ['exp2', [3], 8], ['exp2', [-1], 0.5], ['exp2', [1023], 2 ** 1023], ['exp2', [-1074], SUB], ['exp2', [-1075], 0],
  ['exp2', [-1074.5], SUB], ['exp2', [1023.9999999999999], 1.7976931348621742e308], ['exp2', [-1022], MIN_NORMAL],
  ['log1p', [NaN], NaN], ['log1p', [0], 0], ['log1p', [-0], -0], ['log1p', [-1], -INF], ['log1p', [-2], NaN],
  ['log1p', [-INF], NaN], ['log1p', [INF], INF], ['log1p', [SUB], SUB], ['log1p', [-SUB], -SUB],
  ['log1p', [MAX], 709.782712893384], ['log1p', [-0.5], -0.6931471805599453],
  ['log2', [NaN], NaN], ['log2', [1], 0], ['log2', [0], -INF], ['log2', [-0], -INF], ['log2', [-1], NaN], ['log2', [INF], INF],
  ['log2', [-INF], NaN], ['log2', [8], 3], ['log2', [0.5], -1], ['log2', [SUB], -1074], ['log2', [MAX], 1024],
  ['log10', [NaN], NaN], ['log10', [1], 0], ['log10', [0], -INF], ['log10', [-0], -INF], ['log10', [-1], NaN],
  ['log10', [INF], INF], ['log10', [10], 1], ['log10', [1000], 3], ['log10', [1e-300], -300], ['log10', [1e22], 22],
  ['sinh', [NaN], NaN], ['sinh', [0], 0], ['sinh', [-0], -0], ['sinh', [INF], INF], ['sinh', [-INF], -INF], ['sinh', [SUB], SUB],
  ['sinh', [-SUB], -SUB], ['sinh', [711], INF], ['sinh', [-711], -INF], ['sinh', [MAX], INF], ['sinh', [1], 1.1752011936438014],
  ['sinh', [-2], -3.6268604078470186], ['sinh', [710.4758600739439], 1.7976931348621744e308], ['sinh', [710.475860073944], INF],
  ['cosh', [NaN], NaN], ['cosh', [0], 1], ['cosh', [-0], 1], ['cosh', [INF], INF], ['cosh', [-INF], INF], ['cosh', [SUB], 1],
  ['cosh', [711], INF], ['cosh', [-MAX], INF], ['cosh', [-1], 1.5430806348152437], ['cosh', [710.4758600739439], 1.7976931348621744e308],
  ['tanh', [NaN], NaN], ['tanh', [0], 0], ['tanh', [-0], -0], ['tanh', [INF], 1], ['tanh', [-INF], -1], ['tanh', [SUB], SUB],
  ['tanh', [-SUB], -SUB], ['tanh', [20], 1], ['tanh', [-MAX], -1], ['tanh', [19], 0.9999999999999999], ['tanh', [0.5], 0.46211715726000974],
  ['atan', [NaN], NaN], ['atan', [0], 0], ['atan', [-0], -0], ['atan', [INF], PIO2], ['atan', [-INF], -PIO2], ['atan', [SUB], SUB],
  ['atan', [-SUB], -SUB], ['atan', [1], Math.PI / 4], ['atan', [MAX], PIO2], ['atan', [-1], -Math.PI / 4],
  ['asin', [NaN], NaN], ['asin', [0], 0], ['asin', [-0], -0], ['asin', [1], PIO2], ['asin', [-1], -PIO2], ['asin', [1.0000000000000002], NaN],
  ['asin', [-2], NaN], ['asin', [INF], NaN], ['asin', [SUB], SUB], ['asin', [-SUB], -SUB], ['asin', [0.5], 0.5235987755982989],
  ['acos', [NaN], NaN], ['acos', [1], 0], ['acos', [-1], Math.PI], ['acos', [0], PIO2], ['acos', [-0], PIO2], ['acos', [2], NaN],
  ['acos', [-INF], NaN], ['acos', [0.5], 1.0471975511965979], ['acos', [-0.5], 2.0943951023931957], ['acos', [SUB], PIO2],
  ['atan2', [NaN, 1], NaN], ['atan2', [1, NaN], NaN], ['atan2', [0, 0], 0], ['atan2', [-0, 0], -0], ['atan2', [0, -0], Math.PI],
  ['atan2', [-0, -0], -Math.PI], ['atan2', [0, -1], Math.PI], ['atan2', [-0, -1], -Math.PI], ['atan2', [0, 1], 0], ['atan2', [-0, 1], -0],
  ['atan2', [1, 0], PIO2], ['atan2', [-1, -0], -PIO2], ['atan2', [1, INF], 0], ['atan2', [-1, INF], -0], ['atan2', [1, -INF], Math.PI],
  ['atan2', [-1, -INF], -Math.PI], ['atan2', [INF, 5], PIO2], ['atan2', [-INF, -5], -PIO2], ['atan2', [INF, INF], Math.PI / 4],
  ['atan2', [-INF, INF], -Math.PI / 4], ['atan2', [INF, -INF], 2.356194490192345], ['atan2', [-INF, -INF], -2.356194490192345],
  ['atan2', [1, -1], 2.356194490192345], ['atan2', [SUB, MAX], 0], ['atan2', [MAX, SUB], PIO2], ['atan2', [-SUB, -MAX], -Math.PI],
  ['atan2', [0, NaN], NaN],
  ['asinh', [NaN], NaN], ['asinh', [0], 0], ['asinh', [-0], -0], ['asinh', [INF], INF], ['asinh', [-INF], -INF], ['asinh', [SUB], SUB],
  ['asinh', [-SUB], -SUB], ['asinh', [MAX], 710.475860073944], ['asinh', [-MAX], -710.475860073944], ['asinh', [1], 0.881373587019543],
  ['acosh', [NaN], NaN], ['acosh', [1], 0], ['acosh', [0.5], NaN], ['acosh', [0], NaN], ['acosh', [-1], NaN], ['acosh', [-INF], NaN],
  ['acosh', [INF], INF], ['acosh', [MAX], 710.475860073944], ['acosh', [2], 1.3169578969248168],
  ['atanh', [NaN], NaN], ['atanh', [0], 0], ['atanh', [-0], -0], ['atanh', [1], INF], ['atanh', [-1], -INF], ['atanh', [1.0000000000000002], NaN],
  ['atanh', [-2], NaN], ['atanh', [INF], NaN], ['atanh', [SUB], SUB], ['atanh', [-SUB], -SUB], ['atanh', [0.5], 0.5493061443340549, 1],
  ['cbrt', [NaN], NaN], ['cbrt', [0], 0], ['cbrt', [-0], -0], ['cbrt', [INF], INF], ['cbrt', [-INF], -INF], ['cbrt', [27], 3],
  ['cbrt', [-8], -2], ['cbrt', [SUB], 1.7031839360032603e-108], ['cbrt', [-SUB], -1.7031839360032603e-108], ['cbrt', [MAX], 5.643803094122362e102],
  ['hypot', [INF, NaN], INF], ['hypot', [NaN, -INF], INF], ['hypot', [NaN, 1], NaN], ['hypot', [1, NaN], NaN], ['hypot', [0, 0], 0],
  ['hypot', [-0, -0], 0], ['hypot', [-3, 0], 3], ['hypot', [0, -SUB], SUB], ['hypot', [3, 4], 5], ['hypot', [-3, -4], 5], ['hypot', [MAX, MAX], INF],
  ['hypot', [SUB, SUB], SUB], ['hypot', [MAX / 2, MAX / 2], 1.2711610061536462e308], ['hypot', [INF, INF], INF], ['hypot', [-INF, 1], INF],
  ['logaddexp', [INF, INF], INF], ['logaddexp', [-INF, -INF], -INF], ['logaddexp', [INF, -INF], INF], ['logaddexp', [-INF, INF], INF],
  ['logaddexp', [-INF, 1], 1], ['logaddexp', [1, -INF], 1], ['logaddexp', [NaN, 1], NaN], ['logaddexp', [1, NaN], NaN],
  ['logaddexp', [0, 0], Math.LN2], ['logaddexp', [-0, 0], Math.LN2], ['logaddexp', [MAX, MAX], MAX], ['logaddexp', [1000, 0], 1000],
  ['logaddexp2', [INF, INF], INF], ['logaddexp2', [-INF, -INF], -INF], ['logaddexp2', [-INF, 3], 3], ['logaddexp2', [NaN, 0], NaN],
  ['logaddexp2', [0, 0], 1], ['logaddexp2', [-1074, -1074], -1073], ['logaddexp2', [2000, 0], 2000],
  ['pow', [1, NaN], 1], ['pow', [NaN, 0], 1], ['pow', [NaN, -0], 1], ['pow', [1, INF], 1], ['pow', [-1, INF], 1], ['pow', [-1, -INF], 1],
  ['pow', [NaN, 1], NaN], ['pow', [2, NaN], NaN], ['pow', [0, -3], INF], ['pow', [-0, -3], -INF], ['pow', [0, -2], INF], ['pow', [-0, -2], INF],
  ['pow', [-0, -0.5], INF], ['pow', [0, 3], 0], ['pow', [-0, 3], -0], ['pow', [-0, 2], 0], ['pow', [-0, 0.5], 0], ['pow', [-0, -INF], INF],
  ['pow', [0.5, -INF], INF], ['pow', [2, -INF], 0], ['pow', [0.5, INF], 0], ['pow', [-2, INF], INF], ['pow', [-INF, -3], -0],
  ['pow', [-INF, -2], 0], ['pow', [-INF, 3], -INF], ['pow', [-INF, 2], INF], ['pow', [-INF, 0.5], INF], ['pow', [INF, -1], 0], ['pow', [INF, 1], INF],
  ['pow', [-8, 1 / 3], NaN], ['pow', [-2, 3], -8], ['pow', [-2, 2], 4], ['pow', [-2, 2 ** 60], INF], ['pow', [-0.5, 2 ** 60], 0],
  ['pow', [2, -1074], SUB], ['pow', [2, -1075], 0], ['pow', [2, 1023], 2 ** 1023], ['pow', [2, 1024], INF], ['pow', [10, 308], 1e308],
  ['pow', [0.5, 1075], 0], ['pow', [1.0000001, 1e10], INF], ['pow', [MAX, -1], 5.562684646268003e-309], ['pow', [SUB, 0.5], 2.2227587494850775e-162],
  ['pow', [-SUB, 1], -SUB], ['pow', [3, 2], 9], ['pow', [7, 18], 1628413597910449],
  // C99 F.9.7.1: fmod(+-0, y) = +-0 for y != 0; fmod(+-Inf, y) and fmod(x, 0) are NaN; fmod(x, +-Inf) = x; the sign is x's.
  ['fmod', [0, 3], 0], ['fmod', [-0, 3], -0], ['fmod', [-0, -INF], -0], ['fmod', [INF, 3], NaN], ['fmod', [-INF, 3], NaN],
  ['fmod', [3, 0], NaN], ['fmod', [3, -0], NaN], ['fmod', [0, 0], NaN], ['fmod', [3, INF], 3], ['fmod', [-3, -INF], -3],
  ['fmod', [NaN, 1], NaN], ['fmod', [1, NaN], NaN], ['fmod', [-6, 3], -0], ['fmod', [6, -3], 0], ['fmod', [-7.5, 2], -1.5],
  ['fmod', [7.5, -2], 1.5], ['fmod', [MAX, 3], MAX % 3], ['fmod', [MAX, SUB], 0], ['fmod', [SUB * 3, SUB * 2], SUB], ['fmod', [1, SUB], 0],
  ['fmod', [MAX, MIN_NORMAL], 0], ['fmod', [5e-324, MAX], SUB], ['fmod', [1e300, 3], 1e300 % 3], ['fmod', [0.1, 0.01], 0.1 % 0.01],
];

/** Rows whose inputs and outputs mean the same thing in float32 (NaN, infinities, zeros, exact results). */
const ROWS_32: readonly Row[] = [
  ...ROWS.filter(([, xs, y]) => xs.every((x) => Object.is(Math.fround(x), x) || !Number.isFinite(x) || x === MAX || x === -MAX)
    && (Number.isNaN(y) || y === 0 || y === 1 || y === -1 || !Number.isFinite(y))
    && !(xs[0] === MAX || xs[0] === -MAX)),
  // Expected values correctly rounded (scripts/mpmath/reference.py).
  ['exp', [89], INF], ['exp', [88.72283935546875], INF], ['exp', [88.72283172607422], 3.402798519021476e38],
  ['exp', [-104], 0], ['exp', [-103.97], 1.401298464324817e-45], ['log', [1.401298464324817e-45], -103.2789306640625],
  ['sin', [1.401298464324817e-45], 1.401298464324817e-45], ['sin', [-1.401298464324817e-45], -1.401298464324817e-45],
  ['sin', [3.4028234663852886e38], -0.5218765139579773], ['cos', [3.4028234663852886e38], 0.8530210256576538],
  ['tan', [3.4028234663852886e38], -0.6117979288101196], ['tan', [1.5707963705062866], -22877332],
  ['expm1', [88.69999694824219], 3.325976864406685e38], ['expm1', [89], INF], ['log1p', [3.4028234663852886e38], 88.72283935546875],
  ['exp2', [-149], 1.401298464324817e-45], ['exp2', [-150], 0], ['exp2', [127], 2 ** 127], ['exp2', [128], INF],
  ['log10', [1.401298464324817e-45], -44.85346984863281], ['log2', [1.401298464324817e-45], -149],
  ['sinh', [89.41598510742188], 3.402819612727464e38], ['cosh', [-89.41598510742188], 3.402819612727464e38],
  ['sinh', [89.4159927368164], INF], ['sinh', [-89.4159927368164], -INF], ['tanh', [9], 0.9999999403953552],
  ['atan', [INF], 1.5707963705062866], ['atan', [-INF], -1.5707963705062866], ['atan', [3.4028234663852886e38], 1.5707963705062866],
  ['atan', [-3.4028234663852886e38], -1.5707963705062866], ['atan', [1.401298464324817e-45], 1.401298464324817e-45],
  ['atan', [-1.401298464324817e-45], -1.401298464324817e-45], ['atan', [1.1754942106924411e-38], 1.1754942106924411e-38],
  ['atan', [1.1754943508222875e-38], 1.1754943508222875e-38], ['atan', [1], 0.7853981852531433], ['atan', [-1], -0.7853981852531433],
];

function check(rows: readonly Row[], dtype: 'float64' | 'float32'): string[] {
  const lanes = dtype === 'float64' ? 'f64x2' : 'f32x4';
  const round = dtype === 'float64' ? (x: number): number => x : Math.fround;
  const failures: string[] = [];
  for (const [fn, xs, want, tolerance = 0] of rows) {
    if (!isMathAvailable(fn, lanes)) continue;
    const runner = createMathRunner(fn, lanes);
    const C = dtype === 'float64' ? Float64Array : Float32Array;
    const a = C.from([xs[0]!, 0.5, xs[0]!, xs[0]!]); // the value in every lane position
    const b = MATH_ARITY[fn] === 2 ? C.from([xs[1]!, 0.5, xs[1]!, xs[1]!]) : undefined;
    const out = runner.run(a, b);
    // The ordinary lane beside a special one comes out as it does among its own kind
    // (routines with a short path for ordinary vectors take the long one here).
    const plain = runner.run(C.from([0.5, 0.5, 0.5, 0.5]), b && C.from([0.5, 0.5, 0.5, 0.5]))[1]!;
    if (!Object.is(out[1], plain)) failures.push(`${fn}(0.5) [${dtype} lane 1, beside ${xs.join(', ')}] = ${out[1]}, alone ${plain}`);
    for (const i of [0, 2, 3]) {
      const got = out[i]!;
      const ok = Number.isNaN(want) ? Number.isNaN(got) : Object.is(got, round(want)) || ulpDistance(got, round(want), dtype) <= tolerance;
      if (!ok) failures.push(`${fn}(${xs.join(', ')}) [${dtype} lane ${i}] = ${got}, expected ${round(want)}`);
    }
  }
  return failures;
}

describe('special values (C99 Annex F)', () => {
  test('float64', () => {
    expect(check(ROWS, 'float64')).toEqual([]);
  });

  test('float32', () => {
    expect(check(ROWS_32, 'float32')).toEqual([]);
  });
});
