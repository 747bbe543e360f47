import { HeapExhaustedError, HeapPointerError, WASM32_LIMIT_BYTES, formatBytes } from './errors.js';

describe('heap errors', () => {
  test('formatBytes gives exact bytes and a readable size', () => {
    expect(formatBytes(0)).toBe('0 bytes');
    expect(formatBytes(1023)).toBe('1,023 bytes');
    expect(formatBytes(1536)).toBe('1,536 bytes (1.5 KiB)');
    expect(formatBytes(3 * 1024 ** 3)).toBe('3,221,225,472 bytes (3.0 GiB)');
  });

  test('HeapExhaustedError is a RangeError with code HEAP, its fields, and a cause when the host refused', () => {
    const cause = new RangeError('grow failed');
    const e = new HeapExhaustedError(
      { requested: 2 ** 31, available: 2 ** 30, limit: WASM32_LIMIT_BYTES, freeBytes: 2 ** 30, bytesInUse: 3 * 2 ** 30, liveAllocations: 3, hostRefused: true },
      { cause },
    );
    expect(e).toBeInstanceOf(RangeError);
    expect(e).toBeInstanceOf(HeapExhaustedError);
    expect({ name: e.name, code: e.code, requested: e.requested, available: e.available, limit: e.limit }).toEqual({
      name: 'HeapExhaustedError',
      code: 'HEAP',
      requested: 2 ** 31,
      available: 2 ** 30,
      limit: 2 ** 32,
    });
    expect(e.cause).toBe(cause);
    expect(e.message).toBe(
      'The array heap cannot allocate 2,147,483,648 bytes (2.0 GiB): only 1,073,741,824 bytes (1.0 GiB) are available' +
        ' (3,221,225,472 bytes (3.0 GiB) are in use by 3 live allocation(s)).' +
        ' The host refused to grow the WebAssembly memory (out of memory).' +
        ' wasm32 caps the heap at 4 GiB (65536 pages of 64 KiB).' +
        ' Dispose arrays you no longer need (dispose() or `using`), or process the data in smaller chunks.',
    );
  });

  test('HeapPointerError carries the pointer, the problem and code HEAP_POINTER', () => {
    const e = new HeapPointerError(4096, 'double-free', 'boom');
    expect(e).toBeInstanceOf(Error);
    expect([e.name, e.code, e.ptr, e.problem, e.message]).toEqual(['HeapPointerError', 'HEAP_POINTER', 4096, 'double-free', 'boom']);
  });
});
