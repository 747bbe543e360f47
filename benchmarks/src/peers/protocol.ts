// What a system's process and the parent say to each other, over Node's IPC
// channel (JS children) or JSON lines on stdin/stdout (python/child.py).
//   child -> parent, once:   { loaded, version, note } or { skipped: reason }
//   parent -> child:         { build: case, n, check? } -> { built, summary, calls, oneMs, rss } | { na: reason } | { error }
//                            (check: the answer only, nothing warmed up or timed; calls and oneMs are 0)
//                            'run'              -> { ms } (per call, over `calls` calls) | { error }
//                            'exit'
import type { Summary } from './summary.js';

type FromChild =
  | { readonly loaded: true; readonly version: string; readonly label: string; readonly dtype: 'float64' | 'float32'; readonly note?: string }
  | { readonly skipped: string }
  | { readonly built: true; readonly summary: Summary; readonly calls: number; readonly oneMs: number; readonly rss: number }
  | { readonly na: string }
  | { readonly ms: number }
  | { readonly error: string };

type ToChild = { readonly build: string; readonly n: number; readonly check?: boolean } | 'run' | 'exit';

/** How long one timed run should last at least: calls are repeated inside it up to this. */
const RUN_MS = 25;
const MAX_CALLS = 20000;
/** How long a system's calls run untimed before a case is timed. */
const WARM_MS = 400;

export { RUN_MS, MAX_CALLS, WARM_MS };
export type { FromChild, ToChild };
