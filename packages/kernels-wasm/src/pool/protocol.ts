// What crosses between the calling thread and a worker by message: only its
// start (the shared memory, the doorbell's buffer, the host module). Launches
// and kernel modules go through the doorbell (doorbell-layout.ts).

interface WorkerInit {
  readonly memory: WebAssembly.Memory;
  /** The doorbell's shared buffer, and its number of slots. */
  readonly control: SharedArrayBuffer;
  readonly threads: number;
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

export { serializeFailure };
export type { WorkerInit, SerializedFailure, StartReply };
