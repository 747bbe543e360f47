// The routines' steps in Node: imported with the rest (a process pays
// nothing to download them), so every run has them from the start. The
// browser build swaps in routines-load.browser.ts.
import * as routines from './routine-steps-impl.js';

type Routines = typeof routines;

/** The routines' steps; never undefined here. */
const routinesNow = (): Routines | undefined => routines;

/** Settles when the routines are loaded: at once. */
const routinesReady = (): Promise<void> | undefined => undefined;

export { routinesNow, routinesReady };
export type { Routines };
