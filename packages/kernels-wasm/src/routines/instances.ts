// The hand-written routine modules (the radix sort, LU) next to the
// generated kernels: each compiled once per process in its shared and its
// unshared form, and instantiated once per memory it works in.
import { isSharedBuffer } from '../support.js';

type Routine = (...args: number[]) => number;
type Routines = Readonly<Record<string, Routine>>;

const modules = new Map<string, WebAssembly.Module>();
const instances = new WeakMap<WebAssembly.Memory, Map<string, Routines>>();

/** The exports of module `name` (its bytes from `build(shared)`), instantiated on `memory`. */
function routinesOn(memory: WebAssembly.Memory, name: string, build: (shared: boolean) => Uint8Array<ArrayBuffer>): Routines {
  let perMemory = instances.get(memory);
  if (!perMemory) instances.set(memory, (perMemory = new Map()));
  const hit = perMemory.get(name);
  if (hit) return hit;
  const shared = isSharedBuffer(memory.buffer);
  const key = `${name}:${shared ? 'shared' : 'unshared'}`;
  let module = modules.get(key);
  if (!module) modules.set(key, (module = new WebAssembly.Module(build(shared))));
  const made = new WebAssembly.Instance(module, { env: { memory } }).exports as Routines;
  perMemory.set(name, made);
  return made;
}

export { routinesOn };
export type { Routine, Routines };
