// The calling thread's side of the doorbell (see doorbell-layout.ts): one
// launch at a time, in the order given; a launch costs a few atomic writes,
// two notifies and the wait for DONE, which spins briefly on a short launch
// (it is done before a waitAsync could be armed), otherwise waits
// asynchronously in bounded steps, checking between them that the workers it
// waits for live, and spins for the tail once one worker has finished. A
// launch may bring the calling thread's own run of its blocks (PoolJob.here):
// then the calling thread claims blocks beside one worker fewer, and spins
// for the workers' last blocks (for 2 ms, then it waits as above), so it has
// no wake-up of its own to pay.
import { claimIndex } from '../lower/args-layout.js';
import { stopClaims } from '../lower/launch.js';
import { REPLY, SLOT, STATE, WORD, controlBuffer, ensureBytes, moduleAt, slotWord, wasmAt } from './doorbell-layout.js';
import { PoolStartError, WorkerFailure } from './errors.js';
import type { PoolJob as Ring, PoolStats } from './pool.js';
import type { MutableInit, SerializedFailure } from './protocol.js';

/** How long the calling thread spins for DONE, on a short launch, before it waits asynchronously. */
const SPIN_MS = 0.05;
/** How long the calling thread, having run blocks of a launch itself, spins for the workers' last blocks. */
const JOIN_TAIL_MS = 2;
/** How long the calling thread spins for the last workers once one has finished (all blocks claimed). */
const TAIL_MS = 0.2;
/** How often a waiting launch checks that its workers live. */
const LIVENESS_MS = 50;
/** How long a launch waits for a worker to take a slot when none has, and start() for every worker to. */
const NO_WORKER_MS = 30_000;
/** How long rebind() waits for every worker to take up a new memory. */
const REBIND_MS = 10_000;
/** The longest a Node timer waits: a hold cleared when its wait settles, never due before. */
const HOLD_MS = 2 ** 31 - 1;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

class Doorbell {
  readonly buffer: SharedArrayBuffer;
  readonly #threads: number;
  readonly #w: Int32Array;
  #memory: WebAssembly.Memory;
  readonly #isAlive: (worker: number) => boolean;
  /** The kernels each slot's worker holds, with that worker's id (a new worker in the slot holds none). */
  readonly #held = new Map<number, { readonly worker: number; readonly kernels: Set<number> }>();
  /** The generation of the memory launches run on (WORD.generation). */
  #generation = 0;
  /** The launch in flight: its claim word, block count, and the participants found dead. */
  #current: { readonly ring: Ring; readonly died: Map<number, string> } | undefined;
  #queue: Promise<void> = Promise.resolve();
  #closed = false;
  tasks = 0;
  modulesSent = 0;

  /** Sends the current memory to the workers again (the pool's message: a worker that started behind it never got it). */
  readonly #resend: () => void;

  constructor(threads: number, memory: WebAssembly.Memory, isAlive: (worker: number) => boolean, resend: () => void = () => {}) {
    this.#threads = threads;
    this.#memory = memory;
    this.#isAlive = isAlive;
    this.#resend = resend;
    this.buffer = controlBuffer(threads);
    this.#w = new Int32Array(this.buffer);
  }

  /** The pool's counts this doorbell keeps (PoolStats but workers and jobs, which the pool keeps). */
  counts(): Pick<PoolStats, 'tasks' | 'modulesSent' | 'blocksPerWorker'> {
    // Blocks each slot's workers have run (the calling thread's share of a launch is not counted).
    const blocksPerWorker = Array.from({ length: this.#threads }, (_, s) => Atomics.load(this.#w, slotWord(s, SLOT.blocksRun)));
    return { tasks: this.tasks, modulesSent: this.modulesSent, blocksPerWorker };
  }

  /** Workers parked now or running a launch. */
  #registered(): number {
    let n = 0;
    for (let s = 0; s < this.#threads; s++) {
      const st = Atomics.load(this.#w, slotWord(s, SLOT.state));
      if (st === STATE.parked || st === STATE.go || st === STATE.running) n++;
    }
    return n;
  }

  /** Resolves once `n` workers have taken slots; false if `ms` passed first. */
  async #whenRegistered(n: number, ms: number): Promise<boolean> {
    const end = performance.now() + ms;
    while (this.#registered() < n) {
      const left = end - performance.now();
      if (left <= 0 || this.#closed) return false;
      this.sweep();
      await this.#waitWord(WORD.registered, Atomics.load(this.#w, WORD.registered), Math.min(left, LIVENESS_MS));
    }
    return true;
  }

  /** Resolves once every slot has a worker; PoolStartError if some have none after NO_WORKER_MS. */
  async allParked(): Promise<void> {
    if (!(await this.#whenRegistered(this.#threads, NO_WORKER_MS))) {
      if (this.#closed) throw new PoolStartError('the pool was closed while its workers were starting');
      throw new PoolStartError(`only ${this.#registered()} of ${this.#threads} workers were ready after ${NO_WORKER_MS / 1000} s`);
    }
  }

  /**
   * The heap's new memory, for launches from now on: bumps the generation,
   * and resolves to true once every worker has taken it up (false if one
   * has not within REBIND_MS). The workers are sent it by message (the
   * pool's); until one has it, it is given no launch. Call with no launch in flight.
   */
  rebind(memory: WebAssembly.Memory, init: MutableInit): Promise<boolean> {
    this.#memory = memory;
    const generation = ++this.#generation;
    Atomics.store(this.#w, WORD.generation, generation);
    // What the pool starts a replacement worker with: it starts on the new memory.
    init.memory = memory;
    init.generation = generation;
    this.#resend();
    return this.#whenRebound(generation);
  }

  /** Whether a worker in a slot has a memory older than `generation`. */
  #behind(generation: number): boolean {
    for (let s = 0; s < this.#threads; s++) {
      const st = Atomics.load(this.#w, slotWord(s, SLOT.state));
      if (st !== STATE.vacant && st !== STATE.registering && Atomics.load(this.#w, slotWord(s, SLOT.generation)) < generation) return true;
    }
    return false;
  }

  /**
   * Resolves to true once no worker has a memory older than `generation`
   * (a newer one counts: a later rebind overtook this one), false after
   * REBIND_MS. A worker replaced while the memory was sent may have started
   * behind it and missed the message: it is sent again each time round.
   */
  async #whenRebound(generation: number): Promise<boolean> {
    const end = performance.now() + REBIND_MS;
    while (this.#behind(generation)) {
      const left = end - performance.now();
      if (left <= 0 || this.#closed) return false;
      this.sweep();
      const seen = Atomics.load(this.#w, WORD.registered);
      this.#resend();
      await this.#waitWord(WORD.registered, seen, Math.min(left, LIVENESS_MS));
    }
    return true;
  }

  /** Frees the slots of workers that are no longer alive (the pool calls it when one dies). */
  sweep(reason = 'the worker exited'): void {
    for (let s = 0; s < this.#threads; s++) {
      const state = Atomics.load(this.#w, slotWord(s, SLOT.state));
      // A registering worker has not written its id yet: it is alive.
      if (state === STATE.vacant || state === STATE.registering) continue;
      if (this.#isAlive(Atomics.load(this.#w, slotWord(s, SLOT.worker)))) continue;
      const prev = Atomics.compareExchange(this.#w, slotWord(s, SLOT.state), state, STATE.vacant);
      if (prev !== state) continue;
      this.#held.delete(s);
      // Died after taking up the launch: the launch fails, and no one starts another of its blocks.
      if (prev === STATE.running && this.#current) {
        this.#current.died.set(s, reason);
        stopClaims(this.#memory, this.#current.ring.argsPtr);
      } else if (prev === STATE.go && this.#current) {
        // Died before taking the launch up: it counts as settled, and the launch does not fail for it.
        this.#current.died.set(s, '');
      }
      Atomics.add(this.#w, WORD.vacancy, 1);
      Atomics.notify(this.#w, WORD.vacancy);
      Atomics.notify(this.#w, WORD.done);
    }
  }

  /**
   * Runs every block of the launch on the parked workers (and the calling
   * thread, with `here`); rejects with a WorkerFailure, or the error `here`
   * threw, after every worker given it has settled.
   */
  run(ring: Ring): Promise<void> {
    const run = this.#queue.then(() => this.#launch(ring));
    this.#queue = run.catch(() => {});
    return run;
  }

  /** Stops the workers' parking; a launch still waiting fails once its workers are gone. */
  close(): void {
    this.#closed = true;
    Atomics.store(this.#w, WORD.closed, 1);
    for (let s = 0; s < this.#threads; s++) Atomics.notify(this.#w, slotWord(s, SLOT.state));
    Atomics.notify(this.#w, WORD.vacancy);
  }

  async #launch(ring: Ring): Promise<void> {
    // One view for the launch: the launch block lies below any growth of the shared memory.
    const words = new Int32Array(this.#memory.buffer);
    const claim = claimIndex(ring.argsPtr);
    const unclaimed = (): boolean => Atomics.load(words, claim) < ring.blocks;
    // The calling thread joins as one of the pool's threads: it takes a worker's place.
    const here = ring.here;
    const helpers = here ? Math.min(ring.blocks - 1, this.#threads - 1) : ring.blocks;
    // A worker that started behind the memory (replaced during a rebind) is sent it before the launch, rather than left out of it.
    if (this.#generation > 0 && this.#behind(this.#generation)) await this.#whenRebound(this.#generation);
    let resend = false;
    for (let round = 0; round < 3 && unclaimed(); round++) {
      if (this.#closed) throw new WorkerFailure(ring.label, 'the pool was closed');
      let parked = this.#parked();
      if (parked.length === 0 && !here) {
        if (!(await this.#whenRegistered(1, NO_WORKER_MS))) throw new WorkerFailure(ring.label, `no worker took a slot in ${NO_WORKER_MS / 1000} s`);
        parked = this.#parked();
      }
      // No more workers than blocks: a worker with nothing to claim would only delay the end of the launch.
      parked = parked.slice(0, helpers);
      const lacking = new Set(parked.filter((s) => resend || !this.#holds(s, ring.kernel.id)));
      this.#writeLaunch(ring, lacking.size > 0);
      const base = Atomics.load(this.#w, WORD.done);
      const died = new Map<number, string>();
      this.#current = { ring, died };
      const given = parked.filter((s) => Atomics.compareExchange(this.#w, slotWord(s, SLOT.state), STATE.parked, STATE.go) === STATE.parked);
      // Two notifies: each worker woken wakes two more (park.ts). Waking a worker can cost the calling
      // thread its core for a while, which must not delay the others' start.
      for (const s of given.slice(0, 2)) Atomics.notify(this.#w, slotWord(s, SLOT.state));
      this.tasks += given.length;
      this.modulesSent += given.filter((s) => lacking.has(s)).length;
      // The calling thread's own failure is thrown once the workers have settled, like theirs, and before theirs.
      let failedHere: { readonly error: unknown } | undefined;
      try {
        if (here) {
          try {
            here();
          } catch (error) {
            failedHere = { error };
            // runBlocks does this for a kernel's failure; here() may fail outside it too.
            stopClaims(this.#memory, ring.argsPtr);
          }
        }
        // Every block is claimed once the calling thread is done with them: the workers end within a block.
        const spinMs = here ? JOIN_TAIL_MS : ring.blocks <= given.length ? SPIN_MS : 0;
        await this.#awaitDone(base, given.length, died, spinMs);
      } finally {
        this.#current = undefined;
      }
      try {
        resend = this.#settle(ring, given, died);
      } catch (e) {
        if (!failedHere) throw e;
      }
      if (failedHere) throw failedHere.error;
    }
    if (unclaimed()) throw new WorkerFailure(ring.label, 'no worker took the remaining blocks');
  }

  /** Reads the replies of a finished round: throws the first failure; true if some worker lacked the kernel. */
  #settle(ring: Ring, given: readonly number[], died: ReadonlyMap<number, string>): boolean {
    let missing = false;
    let failure: WorkerFailure | undefined;
    for (const s of given) {
      const reason = died.get(s);
      if (reason !== undefined) {
        if (reason) failure ??= new WorkerFailure(ring.label, `${reason} while running it`);
        continue;
      }
      const reply = Atomics.load(this.#w, slotWord(s, SLOT.reply));
      const worker = Atomics.load(this.#w, slotWord(s, SLOT.worker));
      if (reply === REPLY.failed) {
        const error = this.#error(s);
        failure ??= new WorkerFailure(ring.label, `${error.name}: ${error.message} (in worker ${worker})`, { thrown: error });
      } else if (reply === REPLY.missing) {
        missing = true;
      } else if (reply === REPLY.done) {
        let held = this.#held.get(s);
        if (held?.worker !== worker) this.#held.set(s, (held = { worker, kernels: new Set() }));
        held.kernels.add(ring.kernel.id);
      }
    }
    if (failure) throw failure;
    return missing;
  }

  /** Slots parked with the current memory. */
  #parked(): number[] {
    const out: number[] = [];
    for (let s = 0; s < this.#threads; s++) {
      if (Atomics.load(this.#w, slotWord(s, SLOT.state)) === STATE.parked && Atomics.load(this.#w, slotWord(s, SLOT.generation)) === this.#generation) out.push(s);
    }
    return out;
  }

  #holds(slot: number, kernel: number): boolean {
    const held = this.#held.get(slot);
    return held !== undefined && held.worker === Atomics.load(this.#w, slotWord(slot, SLOT.worker)) && held.kernels.has(kernel);
  }

  /** The launch's words, with the kernel's description and wasm in the module area when some worker lacks it. */
  #writeLaunch(ring: Ring, withModule: boolean): void {
    let meta = 0;
    if (withModule) {
      const { hash, id, hostKeys, bytes } = ring.kernel;
      const json = encoder.encode(JSON.stringify({ hash, id, hostKeys }));
      const base = moduleAt(this.#threads);
      const at = wasmAt(this.#threads, json.length);
      if (!ensureBytes(this.buffer, at + bytes.length)) {
        throw new WorkerFailure(ring.label, `its module (${bytes.length} bytes) does not fit the pool's module area (${this.buffer.byteLength - at} bytes)`);
      }
      new Uint8Array(this.buffer, base, json.length).set(json);
      new Uint8Array(this.buffer, at, bytes.length).set(bytes);
      meta = json.length;
      Atomics.store(this.#w, WORD.wasmBytes, bytes.length);
    }
    Atomics.store(this.#w, WORD.metaBytes, meta);
    Atomics.store(this.#w, WORD.kernel, ring.kernel.id);
    Atomics.store(this.#w, WORD.args, ring.argsPtr);
    Atomics.store(this.#w, WORD.blocks, ring.blocks);
  }

  /**
   * Waits until the `count` workers given the launch have finished it or died,
   * spinning for `spinMs` first: a launch whose workers have a block each at
   * most is likely to end in that time, and a longer one keeps every core for
   * its workers.
   */
  async #awaitDone(base: number, count: number, died: ReadonlyMap<number, string>, spinMs: number): Promise<void> {
    const finished = (): boolean => Atomics.load(this.#w, WORD.done) - base + died.size >= count;
    const spinUntil = spinMs > 0 ? performance.now() + spinMs : 0;
    while (performance.now() < spinUntil) if (finished()) return;
    while (!finished()) {
      const seen = Atomics.load(this.#w, WORD.done);
      await this.#waitWord(WORD.done, seen, LIVENESS_MS);
      // One worker has finished, so every block is claimed: the rest end within a block. Spin for them.
      if (Atomics.load(this.#w, WORD.done) > seen) {
        const tailUntil = performance.now() + TAIL_MS;
        while (!finished() && performance.now() < tailUntil);
      }
      if (finished()) return;
      this.sweep();
      // A worker that died before waking the others leaves them asleep: wake every slot still GO.
      for (let s = 0; s < this.#threads; s++) {
        if (Atomics.load(this.#w, slotWord(s, SLOT.state)) === STATE.go) Atomics.notify(this.#w, slotWord(s, SLOT.state));
      }
    }
  }

  /** Waits (asynchronously) for word `index` to leave `value`, at most `ms`; holds the process open meanwhile. */
  async #waitWord(index: number, value: number, ms: number): Promise<void> {
    const r = Atomics.waitAsync(this.#w, index, value, ms);
    if (!r.async) return;
    // A pending waitAsync alone would let Node exit in the middle of a launch (its timeout is an unref'd
    // timer), so the process is held until the wait settles. Not for `ms` and a margin: Node arms that
    // timer only when the event loop next turns, which after a long synchronous stretch (other runs
    // binding 64 MiB sources) is later than a timer armed here for the same time. A hold that ran out
    // first let the process exit with the launch pending (exit code 13).
    const hold = setTimeout(() => {}, HOLD_MS);
    try {
      await r.value;
    } finally {
      clearTimeout(hold);
    }
  }

  #error(slot: number): SerializedFailure {
    const n = Atomics.load(this.#w, slotWord(slot, SLOT.errorBytes));
    const text = decoder.decode(new Uint8Array(this.buffer, slotWord(slot, SLOT.error) * 4, n).slice());
    try {
      return JSON.parse(text) as SerializedFailure;
    } catch {
      return { name: 'Error', message: text };
    }
  }
}

export { Doorbell };
