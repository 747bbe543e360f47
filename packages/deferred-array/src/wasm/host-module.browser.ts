// The browser build's host-module.ts: the self-contained host-functions.js
// the build writes beside the bundle, named in the form bundlers follow
// (new URL(literal, import.meta.url)) so that they ship it too. A page may
// name another module in globalThis.DEFERRED_ARRAY_HOST_MODULE before the
// pool starts (the browser suite points workers at one that fails on cue).
const hostModuleUrl = (): string =>
  (globalThis as { DEFERRED_ARRAY_HOST_MODULE?: string }).DEFERRED_ARRAY_HOST_MODULE ?? new URL('./host-functions.js', import.meta.url).href;

export { hostModuleUrl };
