// log2 and log10 in f64x2, after FreeBSD msun's e_log2.c and e_log10.c
// (Bruce D. Evans, 2005): the log reduction and kernel of log.ts, with
// log(1+f) carried as hi + lo, hi = f - f^2/2 cut to its top 21 bits so that
// hi times the 33-bit head of 1/ln2 (or 1/ln10) is exact; the tails collect
// every rounding error, and k (times log10(2) in hi/lo parts) is added last
// with an exact two-sum. Special values as log.
import type { Emitter, V } from './emitter.js';
import { log1pTerms, logReduce, logSpecials } from './log.js';

const IVLN2HI = 1.44269504072144627571e+00; // 0x3FF71547 65200000
const IVLN2LO = 1.67517131648865118353e-10; // 0x3DE705FC 2EEFA200
const IVLN10HI = 4.34294481878168880939e-01; // 0x3FDBCB7B 15200000
const IVLN10LO = 2.50829467116452752298e-11; // 0x3DBB9438 CA9AADD5
const LOG10_2HI = 3.01029995663611771306e-01; // 0x3FD34413 509F6000
const LOG10_2LO = 3.69423907715893078616e-13; // 0x3D59FEF3 11F12B36
const HIGH_WORD = 0xffffffff00000000n;

/** log(1+f) = hi + lo with hi short enough for exact products by 33-bit constants. */
function log1pHiLo(e: Emitter, f: V): [V, V] {
  const { s, R, hfsq } = log1pTerms(e, f);
  const r = e.mul(s, e.add(hfsq, R));
  const hi = e.and(e.sub(f, hfsq), e.i64(HIGH_WORD));
  const lo = e.add(e.sub(e.sub(f, hi), hfsq), r);
  return [hi, lo];
}

/** a + b + c with a + b summed exactly (Fast2Sum, |a| >= |b| or a = 0 as k*const vs a log of [sqrt2/2, sqrt2]). */
function addHead(e: Emitter, head: V, hi: V, lo: V): V {
  const w = e.add(head, hi);
  return e.add(e.add(lo, e.add(e.sub(head, w), hi)), w);
}

function log2F64(e: Emitter, x: V): V {
  const { dk, f } = logReduce(e, x);
  const [hi, lo] = log1pHiLo(e, f);
  const valHi = e.mul(hi, e.f64(IVLN2HI));
  const valLo = e.add(e.mul(e.add(lo, hi), e.f64(IVLN2LO)), e.mul(lo, e.f64(IVLN2HI)));
  return logSpecials(e, x, addHead(e, dk, valHi, valLo));
}

function log10F64(e: Emitter, x: V): V {
  const { dk, f } = logReduce(e, x);
  const [hi, lo] = log1pHiLo(e, f);
  const valHi = e.mul(hi, e.f64(IVLN10HI));
  const y2 = e.mul(dk, e.f64(LOG10_2HI));
  const valLo = e.add(e.add(e.mul(dk, e.f64(LOG10_2LO)), e.mul(e.add(lo, hi), e.f64(IVLN10LO))), e.mul(lo, e.f64(IVLN10HI)));
  return logSpecials(e, x, addHead(e, y2, valHi, valLo));
}

export { log2F64, log10F64 };
