// The browser build's routines-load.ts (scripts/bundle.mjs swaps it in): the
// routines' steps, and the routines' code with them, load on the first run
// that needs one, as a chunk of their own. A load that fails (the page is
// offline) says so once; those steps then keep running in the reference
// evaluator, with the same bits, and the next run that needs one tries again.
import { emitWarning } from '../util/platform.js';

type Routines = typeof import('./routine-steps-impl.js');

let loaded: Routines | undefined;
let loading: Promise<void> | undefined;
let warned = false;

/** Starts the load if it has not started, and settles when it is done (failed or not); undefined once loaded. */
function routinesReady(): Promise<void> | undefined {
  if (loaded) return undefined;
  return (loading ??= import('./routine-steps-impl.js').then(
    (m) => { loaded = m; },
    (e: unknown) => {
      loading = undefined;
      if (!warned) emitWarning(`the sorting and linear-algebra routines did not load (${String(e)}); their steps run in the reference evaluator, with the same results, more slowly`);
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
