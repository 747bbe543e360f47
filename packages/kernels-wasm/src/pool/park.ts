// A worker's life between launches: it takes a vacant slot of the doorbell,
// then waits on its slot's state (blocking for a moment after a launch, then
// with Atomics.waitAsync, so that its event loop stays free for the pool and
// an idle worker costs no CPU), runs its part of each launch its slot is
// given, and waits again.
import type { KernelModule } from '../lower/launch.js';
import { ERROR_CAPACITY, REPLY, SLOT, STATE, WORD, moduleAt, slotWord, wasmAt } from './doorbell-layout.js';
import type { WorkerRuntime } from './worker-runtime.js';

/** How long after a launch a worker waits blocking (fast to wake) before it waits asynchronously. */
const HOT_MS = 2;

const decoder = new TextDecoder();
const encoder = new TextEncoder();

/** A parked worker: how it takes up a new memory, sent by message. */
interface Parked {
  rebind(memory: WebAssembly.Memory, generation: number): void;
}

/**
 * Parks `runtime` on the doorbell in `control` under the id `worker`, until
 * the pool closes; its memory is of `generation` (WorkerInit's). After
 * taking up a new memory it calls `rebound` (a collection, where the host
 * allows), before the host learns of it.
 */
function park(runtime: WorkerRuntime, control: SharedArrayBuffer, worker: number, threads: number, generation: number, rebound: () => void = () => {}): Parked {
  const w = new Int32Array(control);
  let slot = -1;
  let lastServed = -Infinity;
  const at = (field: number): number => slotWord(slot, field);

  const register = (): void => {
    if (Atomics.load(w, WORD.closed)) return;
    const vacancy = Atomics.load(w, WORD.vacancy);
    for (let s = 0; s < threads; s++) {
      if (Atomics.compareExchange(w, slotWord(s, SLOT.state), STATE.vacant, STATE.registering) !== STATE.vacant) continue;
      slot = s;
      Atomics.store(w, at(SLOT.worker), worker);
      Atomics.store(w, at(SLOT.generation), generation);
      Atomics.store(w, at(SLOT.state), STATE.parked);
      Atomics.add(w, WORD.registered, 1);
      Atomics.notify(w, WORD.registered);
      wait();
      return;
    }
    // Every slot is taken: the pool has yet to vacate a dead worker's. Wait for it.
    const r = Atomics.waitAsync(w, WORD.vacancy, vacancy);
    if (r.async) void r.value.then(register);
    else register();
  };

  const wait = (): void => {
    for (;;) {
      if (Atomics.load(w, WORD.closed)) return;
      const state = Atomics.load(w, at(SLOT.state));
      if (state === STATE.go) {
        Atomics.store(w, at(SLOT.state), STATE.running);
        wakeOthers();
        serve();
        continue;
      }
      // The pool vacated this slot (it took this worker for dead): take one again.
      if (state !== STATE.parked) return register();
      // Right after a launch another is likely soon (a time loop, the next stage of a force): a
      // blocking wait wakes in microseconds where waitAsync goes through the event loop. It is
      // bounded, so messages and termination are never held up for long.
      const idle = performance.now() - lastServed;
      if (idle < HOT_MS) {
        Atomics.wait(w, at(SLOT.state), STATE.parked, HOT_MS - idle);
        continue;
      }
      // Each worker waits on its own slot, so a launch wakes only the workers it is given.
      const r = Atomics.waitAsync(w, at(SLOT.state), STATE.parked);
      if (r.async) {
        void r.value.then(wait);
        return;
      }
    }
  };

  // The calling thread wakes two of the workers given a launch; each worker woken wakes two
  // more given it and not yet up, so waking 16 takes a few steps, not 16 notifies in a row.
  const wakeOthers = (): void => {
    for (let k = 1, woken = 0; k < threads && woken < 2; k++) {
      const other = slotWord((slot + k) % threads, SLOT.state);
      if (Atomics.load(w, other) === STATE.go) {
        Atomics.notify(w, other);
        woken++;
      }
    }
  };

  const serve = (): void => {
    const id = Atomics.load(w, WORD.kernel);
    const metaBytes = Atomics.load(w, WORD.metaBytes);
    const kernel = metaBytes > 0 ? (): KernelModule => readKernel(control, threads, metaBytes, Atomics.load(w, WORD.wasmBytes)) : undefined;
    const served = runtime.serve(id, Atomics.load(w, WORD.args), Atomics.load(w, WORD.blocks), kernel);
    if (served.kind === 'failed') {
      const bytes = encoder.encode(JSON.stringify(served.error)).subarray(0, ERROR_CAPACITY);
      new Uint8Array(control, at(SLOT.error) * 4, bytes.length).set(bytes);
      Atomics.store(w, at(SLOT.errorBytes), bytes.length);
    }
    if (served.kind === 'done') Atomics.add(w, at(SLOT.blocksRun), served.blocks);
    Atomics.store(w, at(SLOT.reply), served.kind === 'done' ? REPLY.done : served.kind === 'missing' ? REPLY.missing : REPLY.failed);
    // Parked again before counting as done, so the next launch can already include this worker.
    Atomics.store(w, at(SLOT.state), STATE.parked);
    Atomics.add(w, WORD.done, 1);
    Atomics.notify(w, WORD.done);
    lastServed = performance.now();
  };

  register();
  return {
    // Never during serve(): a message is handled between launches, and the host sends one only with none in flight.
    rebind(memory, next) {
      if (next <= generation) return;
      runtime.rebind(memory);
      generation = next;
      rebound();
      if (slot < 0) return;
      Atomics.store(w, at(SLOT.generation), next);
      Atomics.add(w, WORD.registered, 1);
      Atomics.notify(w, WORD.registered);
    },
  };
}

/** The kernel the host put in the module area: its description, then its wasm. */
function readKernel(control: SharedArrayBuffer, threads: number, metaBytes: number, wasmBytes: number): KernelModule {
  const base = moduleAt(threads);
  // TextDecoder and WebAssembly.Module take no views of shared memory: copy first.
  const meta = JSON.parse(decoder.decode(new Uint8Array(control, base, metaBytes).slice())) as Omit<KernelModule, 'module'>;
  const module = new WebAssembly.Module(new Uint8Array(control, wasmAt(threads, metaBytes), wasmBytes).slice());
  return { ...meta, module };
}

export { park };
export type { Parked };
