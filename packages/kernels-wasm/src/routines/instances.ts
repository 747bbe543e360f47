// The hand-written routine modules (the radix sort, LU) next to the
// generated kernels: each compiled once per process in its shared and its
// unshared form, and instantiated once per memory it works in.
import { isSharedBuffer } from '../support.js';

type Routine = (...args: number[]) => number;
type Routines = Readonly<Record<string, Routine>>;

/** A routine module compiled once per process in one form: its bytes (what a pool sends a worker) and module. */
interface RoutineModule {
  readonly bytes: Uint8Array<ArrayBuffer>;
  readonly module: WebAssembly.Module;
}

const modules = new Map<string, RoutineModule>();
const instances = new WeakMap<WebAssembly.Memory, Map<string, Routines>>();

/** Module `name` (its bytes from `build(shared)`) for shared or unshared memory, compiled on first use. */
function routineModule(name: string, build: (shared: boolean) => Uint8Array<ArrayBuffer>, shared: boolean): RoutineModule {
  const key = `${name}:${shared ? 'shared' : 'unshared'}`;
  let made = modules.get(key);
  if (!made) {
    const bytes = build(shared);
    modules.set(key, (made = { bytes, module: new WebAssembly.Module(bytes) }));
  }
  return made;
}

/** The exports of module `name` (its bytes from `build(shared)`), instantiated on `memory`. */
function routinesOn(memory: WebAssembly.Memory, name: string, build: (shared: boolean) => Uint8Array<ArrayBuffer>): Routines {
  let perMemory = instances.get(memory);
  if (!perMemory) instances.set(memory, (perMemory = new Map()));
  const hit = perMemory.get(name);
  if (hit) return hit;
  const { module } = routineModule(name, build, isSharedBuffer(memory.buffer));
  const made = new WebAssembly.Instance(module, { env: { memory } }).exports as Routines;
  perMemory.set(name, made);
  return made;
}

export { routineModule, routinesOn };
export type { Routine, Routines };
