// Groups of equal numbers, for unique: each element's group and each
// group's first position, found by open addressing in typed arrays (a Map's
// get costs several times a probe).
/** The bits of a float64, for hashing values other than int32 ones. */
const hashBits = new Float64Array(1);
const hashWords = new Uint32Array(hashBits.buffer);

/**
 * The slot of `x` in a table of 2^bits slots. An int32 value (the common
 * key: integers, and floats holding them) is mixed as itself; any other from
 * its float64 bits, both words, which tell every value apart (arithmetic on
 * a fraction or a large integer would not: whole families of values would
 * share a slot, and a probe run would grow with each).
 */
function slotOf(x: number, bits: number): number {
  if ((x | 0) === x) return Math.imul(x, 0x9e3779b1) >>> (32 - bits);
  hashBits[0] = x;
  return Math.imul(hashWords[0]! ^ Math.imul(hashWords[1]!, 0x9e3779b1), 0x85ebca6b) >>> (32 - bits);
}

/** A hash table of numbers: keys, and group + 1 in each slot (0: empty). */
interface Table {
  readonly bits: number;
  readonly keys: Float64Array;
  readonly slots: Int32Array;
}

const emptyTable = (bits: number): Table => ({ bits, keys: new Float64Array(1 << bits), slots: new Int32Array(1 << bits) });

/** The table twice as large, holding what `t` holds. */
function grown(t: Table): Table {
  const g = emptyTable(t.bits + 1);
  const mask = g.slots.length - 1;
  for (let s = 0; s < t.slots.length; s++) {
    if (t.slots[s] === 0) continue;
    let h = slotOf(t.keys[s]!, g.bits);
    while (g.slots[h] !== 0) h = (h + 1) & mask;
    g.keys[h] = t.keys[s]!;
    g.slots[h] = t.slots[s]!;
  }
  return g;
}

/**
 * groupBy for numbers, by open addressing in typed arrays (a Map's get costs
 * several times a probe): keys are the values with -0 made +0, hashed from
 * their float64 bits; NaN is kept out of the table (one group, or each its
 * own). The table is kept at most half full.
 */
function groupNumbers(v: ArrayLike<number>, member: Int32Array | undefined, first: number[], equalNan: boolean): void {
  let t = emptyTable(10);
  let { bits, keys, slots } = t;
  let mask = slots.length - 1;
  let nanGroup = -1;
  for (let i = 0; i < v.length; i++) {
    const x = v[i]!;
    let g: number;
    if (x !== x) {
      if (nanGroup < 0 || !equalNan) {
        g = first.length;
        first.push(i);
        if (equalNan) nanGroup = g;
      } else {
        g = nanGroup;
      }
    } else {
      const key = x === 0 ? 0 : x;
      let h = slotOf(key, bits);
      for (;;) {
        const at = slots[h]!;
        if (at === 0) {
          g = first.length;
          first.push(i);
          keys[h] = key;
          slots[h] = g + 1;
          if (2 * first.length > mask) {
            t = grown(t);
            ({ bits, keys, slots } = t);
            mask = slots.length - 1;
          }
          break;
        }
        if (keys[h] === key) {
          g = at - 1;
          break;
        }
        h = (h + 1) & mask;
      }
    }
    if (member) member[i] = g;
  }
}

export { groupNumbers };
