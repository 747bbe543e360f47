// Pool workers' host functions for the browser suite: deferred-array's own, except that
// int32 power (a host call: every float op runs as instructions) throws on a base of 13
// and traps (WebAssembly `unreachable`) on 19.
import * as real from '../../packages/deferred-array/dist/browser/host-functions.js';

const trap = new WebAssembly.Instance(new WebAssembly.Module(new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 4, 1, 96, 0, 0, 3, 2, 1, 0, 7, 5, 1, 1, 116, 0, 0, 10, 5, 1, 3, 0, 0, 11,
]))).exports.t;

export function hostFunction(key) {
  const fn = real.hostFunction(key);
  if (key !== 'power.int32') return fn;
  return (a, b) => {
    if (a === 13) throw new Error('injected failure in a host function');
    if (a === 19) trap();
    return fn(a, b);
  };
}

export const takeFlags = real.takeFlags;
