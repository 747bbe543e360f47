// NumPy's quantile methods (numpy/lib/_function_base_impl.py's
// _QuantileMethods) as plain arithmetic on a line's length: the virtual
// index of the methods that blend two neighbours, and the position of those
// that pick one element, each computed in q's float dtype as NumPy does.

/** Arithmetic in q's float dtype: NumPy computes an array q's virtual indices and gammas in its dtype (float32 rounds each step). */
type Round = (v: number) => number;
const EXACT: Round = (v) => v;

/** The part of NumPy's virtual index that does not depend on n: alpha + q * (1 - alpha - beta). */
const plottingOffset = (alpha: number, beta: number, q: number, r: Round): number => r(r(alpha) + r(q * r(1 - alpha - beta)));

/** NumPy's virtual index (Hyndman and Fan) with plotting positions alpha and beta: _compute_virtual_index, n * q + offset - 1. */
const plotted = ([alpha, beta]: readonly [number, number]) => (n: number, q: number, r: Round): number =>
  r(r(r(r(n) * q) + plottingOffset(alpha, beta, q, r)) - 1);

/** The plotting positions (alpha, beta) of the methods that take them. */
const PLOTTING = {
  hazen: [0.5, 0.5],
  weibull: [0, 0],
  median_unbiased: [1 / 3.0, 1 / 3.0],
  normal_unbiased: [3 / 8.0, 3 / 8.0],
  interpolated_inverted_cdf: [0, 1],
} as const;

/** The methods that blend two neighbours, by their virtual index of quantile q in n elements. */
const BLENDS = {
  linear: (n: number, q: number, r: Round): number => r(r(n - 1) * q),
  hazen: plotted(PLOTTING.hazen),
  weibull: plotted(PLOTTING.weibull),
  median_unbiased: plotted(PLOTTING.median_unbiased),
  normal_unbiased: plotted(PLOTTING.normal_unbiased),
  interpolated_inverted_cdf: plotted(PLOTTING.interpolated_inverted_cdf),
  midpoint: (n: number, q: number, r: Round): number => {
    const v = r(r(n - 1) * q);
    return r(0.5 * r(Math.floor(v) + Math.ceil(v)));
  },
  averaged_inverted_cdf: (n: number, q: number, r: Round): number => r(r(r(n) * q) - 1),
} as const;

/** Python's x % 2 (the sign of the divisor), for whole x. */
const parity = (x: number): number => ((x % 2) + 2) % 2;

/**
 * NumPy's _discrete_interpolation_to_boundaries: the floor of the virtual
 * index where `atFloor(gamma, index)` holds, else the next position; never
 * below 0.
 */
function discrete(index: number, atFloor: (gamma: number, index: number) => boolean): number {
  const previous = Math.floor(index);
  return Math.max(0, atFloor(index - previous, index) ? previous : previous + 1);
}

/** The methods that pick one element, by its position. */
const PICKS = {
  lower: (n: number, q: number, r: Round): number => Math.floor(r(r(n - 1) * q)),
  higher: (n: number, q: number, r: Round): number => Math.ceil(r(r(n - 1) * q)),
  nearest: (n: number, q: number, r: Round): number => roundHalfEven(r(r(n - 1) * q)),
  inverted_cdf: (n: number, q: number, r: Round): number => discrete(r(r(r(n) * q) - 1), (gamma) => gamma === 0),
  // The nearest even order statistic (1-based) at a whole index: an odd floor, 0-based.
  closest_observation: (n: number, q: number, r: Round): number =>
    discrete(r(r(r(r(n) * q) - 1) - 0.5), (gamma, index) => gamma === 0 && parity(Math.floor(index)) === 1),
} as const;

type QuantileMethod = keyof typeof BLENDS | keyof typeof PICKS;
const METHODS = [...Object.keys(BLENDS), ...Object.keys(PICKS)] as QuantileMethod[];

/** np.around: halves to even. */
function roundHalfEven(v: number): number {
  const f = Math.floor(v);
  const d = v - f;
  return d > 0.5 || (d === 0.5 && f % 2 !== 0) ? f + 1 : f;
}

export { BLENDS, PICKS, PLOTTING, METHODS, EXACT, plottingOffset };
export type { Round, QuantileMethod };
