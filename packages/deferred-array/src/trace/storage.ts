// A mutable heap array's memory: heap blocks, each holding one version of it.
// In-place computations never write the block they read. A force writes each
// new version into a block of its own (staged), and only when every step of
// the force has succeeded does the array move to it (commit); a failed force
// drops the staged blocks and leaves the array as it was. Blocks are recycled:
// the committed one and at most two spares (holding the latest earlier
// versions, which expressions built before the writes may still read) are
// kept, so a time loop allocates nothing after its first steps.
import { StaleArrayError } from '../ir/errors.js';
import { dtypeInfo, setElements } from '../ir/dtypes.js';
import type { DType, TypedArray } from '../ir/dtypes.js';
import { makeNode } from '../ir/node.js';
import type { Node, NodeOf, StorageRef } from '../ir/node.js';
import { formatShape, sizeOf } from '../ir/shape.js';
import type { Shape } from '../ir/shape.js';
import { processHeap } from '../core/heap.js';
import type { Heap } from '../core/heap.js';
import { sourcesOf } from '../core/source-cache.js';

interface Block {
  readonly ptr: number;
  /** The version it holds; undefined when it holds nothing anyone may read. */
  version: number | undefined;
  /** Written by the force in progress, not yet committed. */
  staged: boolean;
}

/** Blocks beyond the committed one kept for reuse (and for reads of recent versions). */
const SPARES = 2;

/** Frees a collected array's blocks; holds the block list and heap, never the array. */
const registry = new FinalizationRegistry<{ heap: Heap; blocks: Block[] }>(({ heap, blocks }) => {
  for (const b of blocks.splice(0)) heap.free(b.ptr);
});

class Storage implements StorageRef {
  static #nextId = 1;
  readonly id = Storage.#nextId++;
  readonly shape: Shape;
  readonly dtype: DType;
  readonly bytes: number;
  /**
   * Where its blocks lie: the process heap, since a mutable array belongs to
   * no runtime (another runtime's backend reads and writes it through copies).
   */
  readonly heap: Heap = processHeap();
  /** The version every committed write has brought it to. */
  committed = 0;
  /** The version its newest enqueued computation produces. */
  latest = 0;
  /**
   * Its pending computations, oldest first. The trace's own list is weak, so
   * these live exactly as long as the array can still be read.
   */
  readonly queued: object[] = [];
  readonly #blocks: Block[] = [];
  /** The leaf for the latest version, made once (older leaves live on in the graphs that read them). */
  #leaf: NodeOf<'stored'> | undefined;

  constructor(shape: Shape, dtype: DType) {
    this.shape = Object.freeze([...shape]);
    this.dtype = dtype;
    this.bytes = sizeOf(shape) * dtypeInfo(dtype).bytes;
    registry.register(this, { heap: this.heap, blocks: this.#blocks });
  }

  get name(): string {
    return `A${this.id} ${this.dtype}${formatShape(this.shape)}`;
  }

  /** Version 0 from `data` (row-major), copied into a block now. */
  initialise(data: TypedArray): void {
    const b = this.#newBlock();
    b.version = 0;
    setElements(this.#viewAt(b.ptr), data);
  }

  /** The graph leaf standing for `version`. */
  leaf(version: number): Node {
    if (this.#leaf?.attrs.version === version) return this.#leaf;
    const n = makeNode('stored', [], this.shape, this.dtype, { storage: this, version, label: `${this.name} v${version}` });
    if (version === this.latest) this.#leaf = n;
    return n;
  }

  /** Throws StaleArrayError unless some block holds `version`. */
  assertHeld(version: number): void {
    this.address(version);
  }

  address(version: number): number {
    const b = this.#blocks.find((x) => x.version === version);
    if (!b) {
      throw new StaleArrayError(
        `${this.name}: version ${version} of this array is no longer held (it is now at version ${this.committed}); ` +
        'an expression read it before later in-place writes, which have run since. Execute such expressions before forcing the writes, ' +
        'or copy the array first (da.empty(shape).assign(x))',
      );
    }
    return b.ptr;
  }

  view(version: number): TypedArray {
    return this.#viewAt(this.address(version));
  }

  /**
   * A block for the force in progress to write `version` into: a block
   * holding nothing, or a version neither committed nor in `needed` (read by
   * this stage of the force or a later one), else a new one.
   */
  stage(version: number, needed: ReadonlySet<number>): void {
    const free = (b: Block): boolean => b.version === undefined || (b.version !== this.committed && !needed.has(b.version));
    const candidates = this.#blocks.filter(free).sort((a, b) => (a.version ?? -1) - (b.version ?? -1));
    const b = candidates[0] ?? this.#newBlock();
    b.version = version;
    b.staged = true;
  }

  /**
   * Moves `version`, which the force in progress writes, into the block of
   * `from`, which it wrote earlier and which nothing reads after the kernel
   * writing over it (trace/overwrite.ts); false when no staged block holds `from`.
   */
  overwrite(from: number, version: number): boolean {
    const b = this.#blocks.find((x) => x.version === from && x.staged);
    if (!b) return false;
    b.version = version;
    return true;
  }

  /**
   * The force succeeded: the array is at `version`. Blocks beyond the spares
   * are freed, but never one holding a version in `keep` (pending computations read it).
   */
  commit(version: number, keep: ReadonlySet<number>): void {
    this.committed = version;
    for (const b of this.#blocks) b.staged = false;
    this.#trim(keep);
  }

  /** The force failed: what it wrote is dropped; the committed version and older ones are untouched. */
  rollback(keep: ReadonlySet<number>): void {
    for (const b of this.#blocks) {
      if (!b.staged) continue;
      b.staged = false;
      b.version = undefined;
    }
    this.#trim(keep);
  }

  /** Heap blocks held (for statistics and tests). */
  get blockCount(): number {
    return this.#blocks.length;
  }

  #trim(keep: ReadonlySet<number>): void {
    // Keep the committed block, those pending computations read, and the newest others; free the rest.
    const others = this.#blocks.filter((b) => b.version !== this.committed && !(b.version !== undefined && keep.has(b.version)))
      .sort((a, b) => (b.version ?? -1) - (a.version ?? -1));
    for (const b of others.slice(SPARES)) {
      this.#blocks.splice(this.#blocks.indexOf(b), 1);
      this.heap.free(b.ptr);
    }
  }

  #newBlock(): Block {
    const b: Block = { ptr: sourcesOf(this.heap).allocEvicting(Math.max(this.bytes, 1)), version: undefined, staged: false };
    this.#blocks.push(b);
    return b;
  }

  #viewAt(ptr: number): TypedArray {
    const n = sizeOf(this.shape);
    return this.heap.view(this.dtype, ptr, n);
  }
}

export { Storage };
