// What crosses between the calling thread and a worker by message: only its
// start (the shared memory, the doorbell's buffer, the host module). Launches
// and kernel modules go through the doorbell (doorbell-layout.ts).

interface WorkerInit {
  readonly memory: WebAssembly.Memory;
  /** The doorbell's shared buffer, and its number of slots. */
  readonly control: SharedArrayBuffer;
  readonly threads: number;
  /** The memory's generation (the doorbell's WORD.generation) when this worker was started. */
  readonly generation: number;
  /** Name of the BroadcastChannel a new memory comes by (piscina's workers; comlink's are called). */
  readonly channel?: string;
  /** URL of an ES module exporting hostFunction(key) and optionally takeFlags() (see HostModule). */
  readonly hostModule?: string;
}

interface SerializedFailure {
  readonly name: string;
  readonly message: string;
  readonly code?: string;
}

/** A worker's answer to its start: null once it works, or why it cannot. */
type StartReply = null | { readonly kind: 'failed'; readonly error: SerializedFailure };

function serializeFailure(e: unknown): SerializedFailure {
  if (e instanceof Error) {
    const code = (e as { code?: unknown }).code;
    return { name: e.name, message: e.message, ...(typeof code === 'string' ? { code } : {}) };
  }
  return { name: 'Error', message: String(e) };
}

/** A new memory for the workers, by message (the doorbell carries only words). */
interface Rebind {
  readonly memory: WebAssembly.Memory;
  readonly generation: number;
}

/** A pool's WorkerInit, whose memory and generation a rebind changes: a replacement worker starts with the new. */
type MutableInit = { -readonly [K in keyof WorkerInit]: WorkerInit[K] };

export { serializeFailure };
export type { WorkerInit, MutableInit, Rebind, SerializedFailure, StartReply };
