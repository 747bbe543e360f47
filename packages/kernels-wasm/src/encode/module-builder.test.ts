import { Worker } from 'node:worker_threads';
import { disassemble } from './disassemble.js';
import { ModuleBuilder } from './module-builder.js';
import { addVectorAdd } from './test-modules.js';
import { readModule } from './read-module.js';

const memoryImport = (shared: boolean) => ({ module: 'env', name: 'memory', initial: 1, maximum: 1, shared });

describe('ModuleBuilder', () => {
  test('function types are deduplicated', () => {
    const mb = new ModuleBuilder();
    const t0 = mb.type(['i32', 'f64'], ['f64']);
    expect(mb.type(['i32', 'f64'], ['f64'])).toBe(t0);
    expect(mb.type(['i32', 'f64'], [])).not.toBe(t0);
    expect(mb.type(['i32'], ['f64', 'f64'])).not.toBe(t0); // same types, split differently
    mb.importFunction('env', 'g', ['i32', 'f64'], ['f64']);
    mb.func('a', ['i32', 'f64'], ['f64']);
    mb.func('b', [], []);
    const m = readModule(mb.toBytes());
    expect(m.types.map((t) => `${t.params.join(',')}->${t.results.join(',')}`))
      .toEqual(['i32,f64->f64', 'i32,f64->', 'i32->f64,f64', '->']);
  });

  test('functions are indexed after imported functions, and only exported ones are exported', () => {
    const mb = new ModuleBuilder();
    expect(mb.importFunction('env', 'f', [], [])).toBe(0);
    expect(mb.importFunction('env', 'g', [], [])).toBe(1);
    const [a] = mb.func('a', [], []);
    const [b] = mb.func('b', [], [], false);
    expect([a, b]).toEqual([2, 3]);
    const bytes = mb.toBytes();
    expect(WebAssembly.validate(bytes)).toBe(true);
    expect(readModule(bytes).exports).toEqual([{ name: 'a', kind: 'func', index: 2 }]);
    expect([...readModule(bytes).funcNames.values()]).toEqual(['env.f', 'env.g', 'a', 'b']);
  });

  test('function imports after a defined function are refused', () => {
    const mb = new ModuleBuilder();
    mb.func('a', [], []);
    expect(() => mb.importFunction('env', 'f', [], [])).toThrow('import functions before defining any');
  });

  test('a shared memory import declares its maximum and the shared flag', () => {
    const mb = new ModuleBuilder().importMemory({ module: 'env', name: 'heap', initial: 2, maximum: 300, shared: true });
    expect(disassemble(mb.toBytes())).toContain('(import "env" "heap" (memory 2 300 shared))');
    const plain = new ModuleBuilder().importMemory({ module: 'env', name: 'heap', initial: 2, maximum: 3, shared: false });
    expect(disassemble(plain.toBytes())).toContain('(import "env" "heap" (memory 2 3))');
  });

  test('an active data segment is written into the imported memory at instantiation, its bytes read when assembled', () => {
    const mb = new ModuleBuilder().importMemory({ module: 'env', name: 'memory', initial: 1, maximum: 2, shared: false });
    let bytes = [1, 2];
    mb.data(100, () => new Uint8Array(bytes));
    mb.func('f', [], []);
    bytes = [7, 8, 9];
    const memory = new WebAssembly.Memory({ initial: 1, maximum: 2 });
    new WebAssembly.Instance(new WebAssembly.Module(mb.toBytes()), { env: { memory } });
    expect(Array.from(new Uint8Array(memory.buffer, 99, 5))).toEqual([0, 7, 8, 9, 0]);
    expect(mb.hasMemory).toBe(true);
    expect(new ModuleBuilder().hasMemory).toBe(false);
  });

  test('a data segment without a memory, or at a bad offset, is refused', () => {
    expect(() => new ModuleBuilder().data(0, () => new Uint8Array(1))).toThrow('data(): the module imports no memory; call importMemory() first');
    const mb = new ModuleBuilder().importMemory({ module: 'env', name: 'memory', initial: 1, maximum: 2, shared: false });
    expect(() => mb.data(-16, () => new Uint8Array(1))).toThrow('data(): offset must be a byte address in 0..2^32-1; got -16');
  });

  test('toBytes() can be called again and gives the same bytes', () => {
    const mb = new ModuleBuilder();
    const [, f] = mb.func('a', ['i32'], ['i32']);
    f.op('local.get', 0).block().end();
    expect(Array.from(mb.toBytes())).toEqual(Array.from(mb.toBytes()));
  });
});

describe('modules that run', () => {
  /** out[i] = a[i] + b[i] for n f64s (n even), two lanes per step: (a, b, out, n) byte addresses. */
  function vectorAddModule(): Uint8Array<ArrayBuffer> {
    const mb = new ModuleBuilder();
    mb.importMemory(memoryImport(true));
    addVectorAdd(mb);
    // Horizontal sum of a vector, to exercise lanes: sum(p) = p[0] + p[1].
    const [, s] = mb.func('hsum', ['i32'], ['f64']);
    s.op('local.get', 0).mem('v128.load').op('f64x2.extract_lane', 0)
      .op('local.get', 0).mem('v128.load', { offset: 8, align: 3 }).op('f64x2.extract_lane', 0).op('f64.add');
    return mb.toBytes();
  }

  test('f64x2 vector add over a shared memory', async () => {
    const memory = new WebAssembly.Memory({ initial: 1, maximum: 1, shared: true });
    const { instance } = await WebAssembly.instantiate(vectorAddModule(), { env: { memory } });
    const { add, hsum } = instance.exports as { add: (a: number, b: number, out: number, n: number) => void; hsum: (p: number) => number };
    const n = 10;
    const heap = new Float64Array(memory.buffer);
    const [a, b, out] = [0, 16, 32]; // f64 indices; byte addresses are 8x
    for (let k = 0; k < n; k++) {
      heap[a + k] = k + 0.5;
      heap[b + k] = -2 * k;
    }
    heap[out + n] = 99; // just past the end: must stay untouched
    add(a * 8, b * 8, out * 8, n);
    expect(Array.from(heap.subarray(out, out + n))).toEqual(Array.from({ length: n }, (_, k) => 0.5 - k));
    expect(heap[out + n]).toBe(99);
    expect(hsum(out * 8)).toBe(0.5 + -0.5);
  });

  /** bump(addr, k): k atomic increments of the i32 at addr; returns its value after. */
  function counterModule(): Uint8Array<ArrayBuffer> {
    const mb = new ModuleBuilder();
    mb.importMemory(memoryImport(true));
    const [, f] = mb.func('bump', ['i32', 'i32'], ['i32']);
    f.block().loop()
      .op('local.get', 1).op('i32.eqz').op('br_if', 1)
      .op('local.get', 0).op('i32.const', 1).mem('i32.atomic.rmw.add').op('drop')
      .op('local.get', 1).op('i32.const', 1).op('i32.sub').op('local.set', 1)
      .op('br', 0)
      .end().end()
      .op('local.get', 0).mem('i32.atomic.load');
    const [, w] = mb.func('wait', ['i32', 'i32', 'i64'], ['i32']);
    w.op('local.get', 0).op('local.get', 1).op('local.get', 2).mem('memory.atomic.wait32');
    const [, n] = mb.func('notify', ['i32'], ['i32']);
    n.op('local.get', 0).op('i32.const', 1).mem('memory.atomic.notify');
    const [, c] = mb.func('cas', ['i32', 'i32', 'i32'], ['i32']);
    c.op('local.get', 0).op('local.get', 1).op('local.get', 2).mem('i32.atomic.rmw.cmpxchg');
    return mb.toBytes();
  }

  interface Counter {
    bump: (addr: number, k: number) => number;
    wait: (addr: number, expected: number, timeoutNs: bigint) => number;
    notify: (addr: number) => number;
    cas: (addr: number, expected: number, replacement: number) => number;
  }

  test('an i32.atomic.rmw.add counter, with wait, notify and cmpxchg', async () => {
    const memory = new WebAssembly.Memory({ initial: 1, maximum: 1, shared: true });
    const { instance } = await WebAssembly.instantiate(counterModule(), { env: { memory } });
    const { bump, wait, notify, cas } = instance.exports as unknown as Counter;
    expect(bump(64, 1000)).toBe(1000);
    expect(bump(64, 234)).toBe(1234);
    expect(Atomics.load(new Int32Array(memory.buffer), 16)).toBe(1234);
    expect(wait(64, 7, -1n)).toBe(1); // "not-equal": returns at once
    expect(wait(64, 1234, 0n)).toBe(2); // "timed-out"
    expect(notify(64)).toBe(0); // nobody waiting
    expect(cas(64, 1234, 5)).toBe(1234);
    expect(cas(64, 1234, 6)).toBe(5); // expected value no longer there: unchanged
    expect(bump(64, 0)).toBe(5);
  });

  test('the counter loses no increments when two workers bump it at once', async () => {
    const memory = new WebAssembly.Memory({ initial: 1, maximum: 1, shared: true });
    const module = new WebAssembly.Module(counterModule());
    const perWorker = 20000;
    const source = `
      const { parentPort, workerData } = require('node:worker_threads');
      const { module, memory, k } = workerData;
      const { bump } = new WebAssembly.Instance(module, { env: { memory } }).exports;
      bump(128, k);
      parentPort.postMessage('done');`;
    const run = (): Promise<void> => new Promise((resolve, reject) => {
      const w = new Worker(source, { eval: true, workerData: { module, memory, k: perWorker } });
      w.once('message', () => void w.terminate().then(() => resolve(), reject));
      w.once('error', reject);
    });
    await Promise.all([run(), run()]);
    expect(Atomics.load(new Int32Array(memory.buffer), 32)).toBe(2 * perWorker);
  });
});
