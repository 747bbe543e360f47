// The backends a runtime registers, and the default runtime's engine, which
// the module-level API (da.execute, da.configure, da.stats, ...) runs on, over
// the process heap.
import { Linker } from '../execute/linker.js';
import { ReferenceBackend } from '../reference/backend.js';
import { WasmBackend } from '../wasm/backend.js';
import { ownHeap, processWasmHeap } from '../wasm/heap.js';
import type { WasmHeap } from '../wasm/heap.js';

/** A linker over `heap` with both backends registered, WebAssembly first (the one chosen where the host runs it). */
function createLinker(heap: WasmHeap = ownHeap()): Linker {
  const linker = new Linker(heap);
  linker.register(new WasmBackend(heap));
  linker.register(new ReferenceBackend());
  return linker;
}

const defaultLinker = createLinker(processWasmHeap);

export { createLinker, defaultLinker };
