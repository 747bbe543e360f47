// The benchmark cases, each written the four ways a user could: deferred-array,
// eager @stdlib/ndarray, a hand-fused JS loop, and the streaming limit.
import * as da from 'deferred-array';
import { array, map, sum } from './stdlib.js';
import { chain, chainJs, randomData } from './data.js';

interface Case {
  readonly name: string;
  /** Bytes a single fused pass must move: inputs read once, outputs written once. */
  readonly bytes: number;
  /** execute(): kernels with enough work run on the worker pool. */
  readonly deferred: () => Promise<unknown>;
  /** executeSync(): every kernel on the calling thread. */
  readonly deferredSync: () => unknown;
  readonly eager: () => unknown;
  readonly fusedJs: () => unknown;
}

const RAD = Math.PI / 180;

/** NEP foo: sum(square(deg * pi/180)) over n float64. */
function fooCase(n: number): Case {
  const x = randomData(n, 1);
  const deferred = da.sum(da.square(da.wrap(x).mul(RAD)));
  const nd = array(x, { shape: [n] });
  return {
    name: `NEP foo, ${n.toExponential(0)} float64`,
    bytes: n * 8,
    deferred: () => deferred.execute(),
    deferredSync: () => deferred.executeSync(),
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
    deferred: () => deferred.execute(),
    deferredSync: () => deferred.executeSync(),
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

/** A 10-operation elementwise chain over two inputs with one output: one fused pass moves 24 bytes per element. */
function chainCase(n: number): Case {
  const a = randomData(n, 4);
  const b = randomData(n, 5);
  const A = da.wrap(a);
  const B = da.wrap(b);
  const deferred = chain(A, B);
  const na = array(a, { shape: [n] });
  const nb = array(b, { shape: [n] });
  const out = new Float64Array(n);
  return {
    name: `10-op chain, 2 inputs -> 1 output, ${n.toExponential(0)} float64`,
    bytes: n * 8 * 3,
    deferred: () => deferred.execute(),
    deferredSync: () => deferred.executeSync(),
    eager: () => {
      const zip = (x: ReturnType<typeof array>, y: ReturnType<typeof array>, f: (u: number, v: number) => number) => {
        let i = 0;
        return map(x, (u) => f(u, (y.data as Float64Array)[i++]!));
      };
      let t = zip(map(na, (v) => v * 1.5), nb, (u, v) => u + v);
      t = zip(map(t, (v) => v - 0.25), na, (u, v) => u * v);
      t = zip(map(map(t, (v) => v + 2), (v) => v * 0.5), nb, (u, v) => u - v);
      return map(map(map(t, Math.abs), Math.sqrt), (v) => v + 1);
    },
    fusedJs: () => {
      for (let i = 0; i < n; i++) out[i] = chainJs(a[i]!, b[i]!);
      return out;
    },
  };
}

export { fooCase, sinCosCase, chainCase };
export type { Case };
