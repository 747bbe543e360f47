// The bits of 2/pi and pi/2 that range reduction needs, computed here with
// BigInt instead of pasted from a table, so no transcription error can hide
// in them. pi comes from Machin's formula, pi/4 = 4 atan(1/5) - atan(1/239),
// in fixed point with guard bits far beyond what the callers read.

const PRECISION = 1400n; // fraction bits carried; the digits below use < 1300
const GUARD = 64n;

function atanInverse(x: bigint, one: bigint): bigint {
  // atan(1/x) = sum (-1)^k / ((2k+1) x^(2k+1)); each term truncates by < 1 unit.
  const x2 = x * x;
  let power = one / x;
  let sum = power;
  for (let k = 1n; power !== 0n; k++) {
    power /= x2;
    sum += (k % 2n === 1n ? -power : power) / (2n * k + 1n);
  }
  return sum;
}

/** `compute`, run on the first call only: its value is kept in the closure for later calls. */
function once<T>(compute: () => T): () => T {
  let kept: { readonly value: T } | undefined;
  return () => (kept ??= { value: compute() }).value;
}

/** floor(pi * 2^PRECISION), to within a few units (a few milliseconds of BigInt work, so done once, when first asked for). */
const piFixed = once((): bigint => {
  const one = 1n << (PRECISION + GUARD);
  return (4n * (4n * atanInverse(5n, one) - atanInverse(239n, one))) >> GUARD;
});

/** 2/pi = sum_i digit(i) * 2^(-24(i+1)): the 24-bit digits 0..count-1 (fdlibm's ipio2 layout). */
function twoOverPiDigits(count: number): number[] {
  if (count * 24 > Number(PRECISION) - 64) throw new RangeError(`twoOverPiDigits: at most ${(Number(PRECISION) - 64) / 24 | 0} digits`);
  const twoOverPi = (2n << (2n * PRECISION)) / piFixed(); // 2/pi * 2^PRECISION
  const digits: number[] = [];
  for (let i = 0; i < count; i++) {
    digits.push(Number((twoOverPi >> (PRECISION - 24n * BigInt(i + 1))) & 0xffffffn));
  }
  return digits;
}

/** pi/2 as a sum of doubles: the first `bits[j]` significant bits of what remains, j = 0, 1, ... (0 = all 53). */
function pio2Parts(bits: readonly number[]): number[] {
  const scale = PRECISION + 1n; // pi/2 * 2^scale = pi * 2^PRECISION
  let rest = piFixed();
  const parts: number[] = [];
  for (const b of bits) {
    const width = BigInt(rest.toString(2).length);
    const keep = BigInt(b === 0 ? 53 : b);
    const drop = width > keep ? width - keep : 0n;
    // Round the last kept part to nearest, truncate the others so they stay exact.
    const head = b === 0 ? (rest + (drop > 0n ? 1n << (drop - 1n) : 0n)) >> drop : rest >> drop;
    parts.push(Number(head) * 2 ** Number(drop - scale));
    rest -= head << drop;
  }
  return parts;
}

export { twoOverPiDigits, pio2Parts, piFixed };
