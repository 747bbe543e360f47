import { detectSupport, SIMD_PROBE } from './support.js';

describe('detectSupport', () => {
  test('Node 20 has WebAssembly with SIMD and shared memory', () => {
    expect(detectSupport()).toEqual({ wasm: true, simd: true, sharedMemory: true });
  });

  test('the SIMD probe is a valid module that returns a v128', async () => {
    const { instance } = await WebAssembly.instantiate(SIMD_PROBE);
    expect(Object.keys(instance.exports)).toEqual([]);
  });

  test('a corrupted probe is rejected, so the check can fail', () => {
    const broken = SIMD_PROBE.slice();
    broken[broken.length - 2] = 0xff; // an opcode that does not exist
    expect(WebAssembly.validate(broken)).toBe(false);
  });
});
