// A table from node ids to small non-negative integers for the walks every
// request makes (topoOrder, structureOf). A Map or Set made per walk cost
// more than the walk itself: each entry is a hashed insert into a fresh
// object, and the objects are garbage by the next request. This table is
// reused: open addressing over typed arrays, emptied in O(1) by moving to a
// new stamp, and lent from a small pool so that a walk inside a walk (a
// callback that walks) gets a table of its own.

/** Below this many slots a table is never made: walks of a few nodes are the common case. */
const MIN_SLOTS = 256;

class IdTable {
  // Ids are counters that may pass 2^32 in a long process: kept whole as float64, hashed by their low bits.
  #keys = new Float64Array(MIN_SLOTS);
  #values = new Int32Array(MIN_SLOTS);
  /** The stamp of the walk that wrote each slot; a slot of an older stamp is empty. */
  #stamps = new Uint32Array(MIN_SLOTS);
  #stamp = 1;
  #size = 0;
  #bits = Math.log2(MIN_SLOTS);

  /** Empties the table. */
  clear(): void {
    this.#size = 0;
    if (++this.#stamp === 0xffffffff) {
      this.#stamps.fill(0);
      this.#stamp = 1;
    }
  }

  get size(): number {
    return this.#size;
  }

  /** Slots held: twice the most entries it has held, at least MIN_SLOTS. */
  get slots(): number {
    return this.#stamps.length;
  }

  /** The value stored for `id`, or -1. */
  get(id: number): number {
    const mask = this.#stamps.length - 1;
    for (let i = this.#slot(id); ; i = (i + 1) & mask) {
      if (this.#stamps[i] !== this.#stamp) return -1;
      if (this.#keys[i] === id) return this.#values[i]!;
    }
  }

  has(id: number): boolean {
    return this.get(id) !== -1;
  }

  /** Stores `value` (>= 0) for `id`, replacing what was there. */
  set(id: number, value: number): void {
    if (2 * (this.#size + 1) > this.#stamps.length) this.#grow();
    const mask = this.#stamps.length - 1;
    for (let i = this.#slot(id); ; i = (i + 1) & mask) {
      if (this.#stamps[i] !== this.#stamp) {
        this.#stamps[i] = this.#stamp;
        this.#keys[i] = id;
        this.#values[i] = value;
        this.#size++;
        return;
      }
      if (this.#keys[i] === id) {
        this.#values[i] = value;
        return;
      }
    }
  }

  /** Fibonacci hashing of the id's low 32 bits: consecutive ids land far apart. */
  #slot(id: number): number {
    return Math.imul(id | 0, 0x9e3779b1) >>> (32 - this.#bits);
  }

  #grow(): void {
    const keys = this.#keys;
    const values = this.#values;
    const stamps = this.#stamps;
    const stamp = this.#stamp;
    const slots = stamps.length * 2;
    this.#keys = new Float64Array(slots);
    this.#values = new Int32Array(slots);
    this.#stamps = new Uint32Array(slots);
    this.#bits++;
    this.#stamp = 1;
    this.#size = 0;
    for (let i = 0; i < stamps.length; i++) if (stamps[i] === stamp) this.set(keys[i]!, values[i]!);
  }
}

/** Tables not lent now. */
const idle: IdTable[] = [];

/** An empty table, to be given back with giveBack when the walk ends. */
function borrowIdTable(): IdTable {
  const t = idle.pop() ?? new IdTable();
  t.clear();
  return t;
}

/** Past this many slots (1 MiB held) a table given back is dropped rather than kept for the next walk. */
const KEEP_SLOTS = 1 << 16;

/** Takes back a table from borrowIdTable. */
function giveBackIdTable(t: IdTable): void {
  if (idle.length < 4 && t.slots <= KEEP_SLOTS) idle.push(t);
}

export { IdTable, borrowIdTable, giveBackIdTable };
