// log2 and log10 in f64x2, after FreeBSD msun's e_log2.c and e_log10.c
// (Bruce D. Evans, 2005): log(z) carried as hi + lo, hi cut to its top 21
// bits so that hi times the 32-bit head of 1/ln2 (or 1/ln10) is exact; the
// tails collect every rounding error, and k (times log10(2) in hi/lo parts)
// is added last with an exact two-sum. Vectors of positive normal finite
// lanes take log(z) from log's table form (log.ts: log c + rh summed exactly,
// then the small terms), about twice as fast; other vectors take FreeBSD's
// reduction and kernel (fdlibm's log1p(f) as hi + lo) on their other lanes,
// with the special values of log.
import type { Emitter, V } from './emitter.js';
import { byTable, log1pTerms, logReduce, logSpecials, tableParts } from './log.js';
import type { Offset } from './log.js';
import { fastTwoSum } from './f64-bits.js';

const IVLN2HI = 1.44269504072144627571e+00; // 0x3FF71547 65200000
const IVLN2LO = 1.67517131648865118353e-10; // 0x3DE705FC 2EEFA200
const IVLN10HI = 4.34294481878168880939e-01; // 0x3FDBCB7B 15200000
const IVLN10LO = 2.50829467116452752298e-11; // 0x3DBB9438 CA9AADD5
const LOG10_2HI = 3.01029995663611771306e-01; // 0x3FD34413 509F6000
const LOG10_2LO = 3.69423907715893078616e-13; // 0x3D59FEF3 11F12B36
const HIGH_WORD = 0xffffffff00000000n;

/** log(1+f) = hi + lo with hi short enough (21 bits) for exact products by the 32-bit heads. */
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

/** log(z) = hi + lo from the table form, hi cut to 21 bits, for x = 2^k z positive, normal and finite. */
function tableHiLo(e: Emitter, x: V, at: Offset): { dk: V; hi: V; lo: V } {
  const p = tableParts(e, x, at);
  // |log c| > |rh| or c = 1 (log c = 0): generate_tables.py checks.
  const [w, we] = fastTwoSum(e, p.logc, p.rh);
  const hi = e.and(w, e.i64(HIGH_WORD));
  return { dk: p.dk, hi, lo: e.add(e.add(e.sub(w, hi), we), e.add(p.rl, p.poly)) };
}

/** k + (hi + lo)/ln2. */
function log2Of(e: Emitter, dk: V, hi: V, lo: V): V {
  const valHi = e.mul(hi, e.f64(IVLN2HI));
  const valLo = e.add(e.mul(e.add(lo, hi), e.f64(IVLN2LO)), e.mul(lo, e.f64(IVLN2HI)));
  return addHead(e, dk, valHi, valLo);
}

/** k log10(2) + (hi + lo)/ln10. */
function log10Of(e: Emitter, dk: V, hi: V, lo: V): V {
  const valHi = e.mul(hi, e.f64(IVLN10HI));
  const y2 = e.mul(dk, e.f64(LOG10_2HI));
  const valLo = e.add(e.add(e.mul(dk, e.f64(LOG10_2LO)), e.mul(e.add(lo, hi), e.f64(IVLN10LO))), e.mul(lo, e.f64(IVLN10HI)));
  return addHead(e, y2, valHi, valLo);
}

/** FreeBSD's reduction and kernel, then `of`, with log's special values. */
function viaFdlibm(e: Emitter, x: V, of: (e: Emitter, dk: V, hi: V, lo: V) => V): V {
  const { dk, f } = logReduce(e, x);
  const [hi, lo] = log1pHiLo(e, f);
  return logSpecials(e, x, of(e, dk, hi, lo));
}

function log2F64(e: Emitter, x: V): V {
  return byTable(e, x, (at) => { const t = tableHiLo(e, x, at); return log2Of(e, t.dk, t.hi, t.lo); }, () => viaFdlibm(e, x, log2Of));
}

function log10F64(e: Emitter, x: V): V {
  return byTable(e, x, (at) => { const t = tableHiLo(e, x, at); return log10Of(e, t.dk, t.hi, t.lo); }, () => viaFdlibm(e, x, log10Of));
}

export { log2F64, log10F64 };
