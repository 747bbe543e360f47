// The backends a runtime registers, and the default runtime's engine, which
// the module-level API (da.execute, da.configure, da.stats, ...) runs on.
import { Linker } from '../execute/linker.js';
import { ReferenceBackend } from '../reference/backend.js';
import { WasmBackend } from '../wasm/backend.js';

/** A linker with both backends registered, WebAssembly first (the one chosen where the host runs it). */
function createLinker(): Linker {
  const linker = new Linker();
  linker.register(new WasmBackend());
  linker.register(new ReferenceBackend());
  return linker;
}

const defaultLinker = createLinker();

export { createLinker, defaultLinker };
