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

let loaded: Routines | undefined;
let loading: Promise<void> | undefined;
let failedAt = -Infinity;
let warned = false;

/** Starts the load if it has not started, and settles when it is done (failed or not); undefined once loaded, or while a failed load waits to be tried again. */
function routinesReady(): Promise<void> | undefined {
  if (loaded || (!loading && performance.now() - failedAt < RETRY_MS)) return undefined;
  return (loading ??= import('./routine-steps-impl.js').then(
    (m) => { loaded = m; },
    (e: unknown) => {
      loading = undefined;
      failedAt = performance.now();
      if (!warned) emitWarning(`the sorting and linear-algebra routines did not load (${String(e)}); their steps run in the reference evaluator, with the same results, more slowly, and the load is tried again on later runs`);
      warned = true;
    },
  ));
}

/** The routines' steps if they have loaded; else starts their load and gives undefined (the reference runs those steps meanwhile). */
function routinesNow(): Routines | undefined {
  if (!loaded) void routinesReady();
  return loaded;
}

export { routinesNow, routinesReady };
export type { Routines };
