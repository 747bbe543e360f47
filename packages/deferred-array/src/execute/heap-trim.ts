// Giving a runtime's heap memory back. A WebAssembly.Memory never shrinks,
// so a burst of big runs would leave the process (or the tab) holding its
// peak for the rest of its life. After an idle time (config.trimAfterIdleMs)
// and at shutdown(), the runtime drops its cached source copies (copies:
// they come back on their next read) and, when nothing else is left in the
// heap (no view result, no mutable array), starts the heap over on a small
// memory; the backends then bind what imports the old one (the pool's
// workers, kernel instances) to the new. What is held stays where it is:
// with a view or a mutable array in the heap, nothing is given back, and
// da.heapStats() says what holds it.
//
// The swap is one synchronous step taken with no run in flight, so no run
// ever sees two memories; the idle timer costs a run one counter increment.
import type { Heap } from '../core/heap.js';
import { sourcesOf } from '../core/source-cache.js';
import { collectGarbage } from '../util/platform.js';

interface TrimHost {
  readonly heap: Heap;
  /** Milliseconds of idleness before a trim (Infinity: never), read as a timer is set. */
  idleMs(): number;
  /** Binds whatever imports the heap's memory to its new one; resolves once that is done. */
  replaced(): Promise<void>;
  /** Lets go of what the backends keep between runs only to make them faster (a private heap), whether or not the heap shrinks. */
  idle(): void;
}

/** Node's timers hold the process open unless unref'd; a browser's are numbers. */
function unref(t: ReturnType<typeof setTimeout>): void {
  if (typeof t === 'object' && t !== null && 'unref' in t) t.unref();
}

/** Idle-timer ticks per idle time. */
const TICKS = 4;

/**
 * A collection is asked for only when the memory given back is at least
 * this: a full collection pauses the calling thread (tens of ms for a small
 * JS heap, 0.4-1 s for 400 MiB of JS objects), which only a large memory repays.
 */
const COLLECT_FROM_BYTES = 64 * 2 ** 20;

class HeapTrimmer {
  readonly #host: TrimHost;
  /** Runs begun and not yet ended (async runs: they await between steps). */
  #running = 0;
  /** Runs begun since the trimmer was made: the idle timer compares it to tell whether any ran. */
  #runs = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  readonly #waiters: (() => void)[] = [];

  constructor(host: TrimHost) {
    this.#host = host;
  }

  /** An asynchronous run begins: no trim until it ends. */
  begin(): void {
    this.#running++;
    this.#runs++;
  }

  /** An asynchronous run has ended. */
  end(): void {
    if (--this.#running === 0) for (const w of this.#waiters.splice(0)) w();
    this.#arm();
  }

  /** A run on the calling thread has ended (nothing can trim during it). */
  ran(): void {
    this.#runs++;
    this.#arm();
  }

  /** Resolves once no run is in flight. */
  async settled(): Promise<void> {
    while (this.#running > 0) await new Promise<void>((resolve) => this.#waiters.push(resolve));
  }

  /**
   * Gives the heap's memory back if no run is in flight and nothing but
   * cached source copies is left in it; resolves to whether it did, once the
   * backends are bound to the new memory. With `collect` (the idle trim),
   * asks the host for a collection after it, so that an idle process lets
   * the old memory go; shutdown() leaves that to the collector's own time.
   */
  async trim(collect = false): Promise<boolean> {
    if (this.#running > 0) return false;
    this.#host.idle();
    const { heap } = this.#host;
    const sources = sourcesOf(heap);
    // The copies are dropped only when that lets the memory go: else they would be read again for nothing.
    if (!heap.shrinkable(sources.keptBlocks)) return false;
    sources.releaseAll();
    const given = heap.stats().heapBytes;
    if (!heap.shrink()) return false;
    await this.#host.replaced();
    if (collect && given - heap.stats().heapBytes >= COLLECT_FROM_BYTES) collectGarbage();
    return true;
  }

  /**
   * Sets the idle timer unless one is set. It ticks TICKS times an idle
   * time, so the trim comes between one and 1 + 1/TICKS idle times after the
   * last run, where one timeout re-armed per idle time would take up to two;
   * and a run pays no clock reading, only the counter.
   */
  #arm(): void {
    if (this.#timer !== undefined || this.#host.idleMs() === Infinity) return;
    let seen = this.#runs;
    let quiet = 0;
    const tick = (): void => {
      this.#timer = undefined;
      const ms = this.#host.idleMs();
      if (ms === Infinity) return;
      if (this.#runs !== seen || this.#running > 0) {
        seen = this.#runs;
        quiet = 0;
      } else if (++quiet >= TICKS) {
        // Nothing to report a failure to (the pool ends on its own if its workers failed the new memory).
        // Held back by a view or a mutable array, the timer goes on: released later, with no run after, they must not keep the peak.
        void this.trim(true).then((shrank) => { if (!shrank && this.#host.heap.shrinkable(Infinity)) this.#arm(); }, () => {});
        return;
      }
      this.#timer = setTimeout(tick, ms / TICKS);
      unref(this.#timer);
    };
    this.#timer = setTimeout(tick, this.#host.idleMs() / TICKS);
    unref(this.#timer);
  }
}

export { HeapTrimmer };
export type { TrimHost };
