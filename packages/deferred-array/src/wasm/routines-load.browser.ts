// The browser build's routines-load.ts (scripts/bundle.mjs swaps it in): the
// routines' steps, and the routines' code with them, load on the first run
// that needs one, as a chunk of their own. A load that fails (the page is
// offline) says so once; those steps then keep running in the reference
// evaluator, with the same results (NaN sign and payload aside), and a run
// that needs them tries the load again once RETRY_MS have passed.
import { emitWarning } from '../util/platform.js';

type Routines = typeof import('./routine-steps-impl.js');

/** How long after a failed load the next need tries again (one fetch per run would hammer an offline page). */
const RETRY_MS = 10_000;

/** A module loaded on first need, read synchronously once it is in. One per page: the module, like any import, is the page's. */
class OnDemand<T> {
  readonly #load: () => Promise<T>;
  readonly #what: string;
  #loaded: T | undefined;
  #loading: Promise<void> | undefined;
  #failedAt = -Infinity;
  #warned = false;

  /** `load` imports the module; `what` names it in the warning a failed load gives. */
  constructor(load: () => Promise<T>, what: string) {
    this.#load = load;
    this.#what = what;
  }

  /** Starts the load if it has not started, and settles when it is done (failed or not); undefined once loaded, or while a failed load waits to be tried again. */
  ready(): Promise<void> | undefined {
    if (this.#loaded || (!this.#loading && performance.now() - this.#failedAt < RETRY_MS)) return undefined;
    return (this.#loading ??= this.#load().then(
      (m) => { this.#loaded = m; },
      (e: unknown) => {
        this.#loading = undefined;
        this.#failedAt = performance.now();
        if (!this.#warned) emitWarning(`${this.#what} did not load (${String(e)}); their steps run in the reference evaluator, with the same results, more slowly, and the load is tried again on later runs`);
        this.#warned = true;
      },
    ));
  }

  /** The module if it has loaded; else starts its load and gives undefined. */
  now(): T | undefined {
    if (!this.#loaded) void this.ready();
    return this.#loaded;
  }
}

const routines = new OnDemand<Routines>(() => import('./routine-steps-impl.js'), 'the sorting and linear-algebra routines');

/** The routines' steps if they have loaded; else starts their load and gives undefined (the reference runs those steps meanwhile). */
const routinesNow = (): Routines | undefined => routines.now();

/** Starts the routines' load if needed; settles when it is done (undefined once loaded). */
const routinesReady = (): Promise<void> | undefined => routines.ready();

export { routinesNow, routinesReady, OnDemand, RETRY_MS };
export type { Routines };
