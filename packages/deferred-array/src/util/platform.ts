// The little this package asks of its host, in one place.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

function availableCores(): number {
  const nav = (globalThis as { navigator?: { hardwareConcurrency?: number } }).navigator;
  if (nav?.hardwareConcurrency) return nav.hardwareConcurrency;
  try {
    const os = require('node:os') as { availableParallelism?: () => number; cpus: () => unknown[] };
    return os.availableParallelism?.() ?? os.cpus().length;
  } catch {
    return 1;
  }
}

/** A warning the way the host reports them: process.emitWarning in Node, console.warn elsewhere. */
function emitWarning(message: string, type = 'RuntimeWarning'): void {
  const proc = (globalThis as { process?: { emitWarning?: (m: string, t: string) => void } }).process;
  if (proc?.emitWarning) proc.emitWarning(message, type);
  else console.warn(`${type}: ${message}`);
}

export { availableCores, emitWarning };
