// Frees an allocation when the JS object that owns it is garbage collected,
// as a safety net behind explicit dispose(). Collection is not guaranteed to
// ever happen, so nothing may depend on it for correctness.
//
// Token scheme: each track() gets a fresh serial, and the registry holds only
// { ptr, serial } (never the owner, which would keep it alive). An explicit
// free or untrack unregisters the entry and forgets the serial; a cleanup
// call whose serial is no longer the current one for its ptr does nothing.
// So a late cleanup can never free an address that was freed and handed out
// again to someone else in the meantime.

/** What the registry remembers about a tracked allocation. */
interface TrackedAllocation {
  readonly ptr: number;
  readonly serial: number;
}

/** The part of FinalizationRegistry the heap uses; tests substitute their own. */
interface FinalizerRegistry {
  register(owner: object, held: TrackedAllocation, unregisterToken: object): void;
  unregister(unregisterToken: object): boolean;
}

type RegistryFactory = (cleanup: (held: TrackedAllocation) => void) => FinalizerRegistry | undefined;

/** The host's FinalizationRegistry, or undefined where there is none (then only explicit frees release memory). */
const hostRegistry: RegistryFactory = (cleanup) =>
  typeof FinalizationRegistry === 'function' ? new FinalizationRegistry<TrackedAllocation>(cleanup) : undefined;

interface Entry {
  readonly serial: number;
  readonly token: object;
}

class Lifetimes {
  #registry: FinalizerRegistry | undefined;
  #entries = new Map<number, Entry>();
  #nextSerial = 1;
  #release: (ptr: number) => void;

  /** `release` frees a pointer whose owner was collected. */
  constructor(factory: RegistryFactory, release: (ptr: number) => void) {
    this.#release = release;
    this.#registry = factory((held) => this.#collected(held));
  }

  /** Whether owners are actually watched (false where the host has no FinalizationRegistry). */
  get active(): boolean {
    return this.#registry !== undefined;
  }

  isTracked(ptr: number): boolean {
    return this.#entries.has(ptr);
  }

  track(owner: object, ptr: number): void {
    const entry: Entry = { serial: this.#nextSerial++, token: {} };
    this.#entries.set(ptr, entry);
    this.#registry?.register(owner, { ptr, serial: entry.serial }, entry.token);
  }

  /** Stops watching ptr's owner; true if it was watched. Call before (or as part of) every explicit free. */
  untrack(ptr: number): boolean {
    const entry = this.#entries.get(ptr);
    if (entry === undefined) return false;
    this.#entries.delete(ptr);
    this.#registry?.unregister(entry.token);
    return true;
  }

  // Runs from the host's cleanup job, where a throw would surface as an
  // uncaught error far from its cause: stale entries are ignored quietly.
  #collected(held: TrackedAllocation): void {
    const entry = this.#entries.get(held.ptr);
    if (entry === undefined || entry.serial !== held.serial) return;
    this.#entries.delete(held.ptr);
    this.#release(held.ptr);
  }
}

export { Lifetimes, hostRegistry };
export type { TrackedAllocation, FinalizerRegistry, RegistryFactory };
