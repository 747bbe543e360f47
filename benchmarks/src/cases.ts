// The benchmark cases, each written the four ways a user could: deferred-array,
// eager @stdlib/ndarray, a hand-fused JS loop, and the streaming limit.
import * as da from 'deferred-array';
import { array, map, sum } from './stdlib.js';

interface Case {
  readonly name: string;
  /** Bytes a single fused pass must move: inputs read once, outputs written once. */
  readonly bytes: number;
  readonly deferred: () => unknown;
  readonly eager: () => unknown;
  readonly fusedJs: () => unknown;
}

const RAD = Math.PI / 180;

function randomData(n: number, seed: number): Float64Array {
  const x = new Float64Array(n);
  let s = seed >>> 0;
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    x[i] = (s / 2 ** 32) * 360 - 180;
  }
  return x;
}

/** NEP foo: sum(square(deg * pi/180)) over n float64. */
function fooCase(n: number): Case {
  const x = randomData(n, 1);
  const deferred = da.sum(da.square(da.wrap(x).mul(RAD)));
  const nd = array(x, { shape: [n] });
  return {
    name: `NEP foo, ${n.toExponential(0)} float64`,
    bytes: n * 8,
    deferred: () => deferred.executeSync(),
    eager: () => sum(map(map(nd, (v) => v * RAD), (v) => v * v)).get(),
    fusedJs: () => {
      let s = 0;
      for (let i = 0; i < n; i++) {
        const r = x[i]! * RAD;
        s += r * r;
      }
      return s;
    },
  };
}

/** numexpr's classic: sin(a)**2 + cos(b)**2, one output array. */
function sinCosCase(n: number): Case {
  const a = randomData(n, 2);
  const b = randomData(n, 3);
  const deferred = da.add(da.square(da.sin(da.wrap(a))), da.square(da.cos(da.wrap(b))));
  const na = array(a, { shape: [n] });
  const nb = array(b, { shape: [n] });
  const out = new Float64Array(n);
  return {
    name: `sin(a)**2 + cos(b)**2, ${n.toExponential(0)} float64`,
    bytes: n * 8 * 3,
    deferred: () => deferred.executeSync(),
    eager: () => {
      const s2 = map(map(na, Math.sin), (v) => v * v);
      const c2 = map(map(nb, Math.cos), (v) => v * v);
      let i = 0;
      return map(s2, (v) => v + c2.data[i++]!);
    },
    fusedJs: () => {
      for (let i = 0; i < n; i++) {
        const s = Math.sin(a[i]!);
        const c = Math.cos(b[i]!);
        out[i] = s * s + c * c;
      }
      return out;
    },
  };
}

export { fooCase, sinCosCase };
export type { Case };
