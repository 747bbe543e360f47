// The small integers a structure's code is made of (template.ts): ops,
// dtypes, pins by their place in fixed lists; shapes, attributes, mark names
// and targets through a table of the strings seen, one per cache of
// templates. The table is bounded: when it fills it starts over in a new
// epoch, which every code carries first, so a code made before can never
// equal one made after (their numbers would mean other strings).
import { DTYPES } from '../ir/dtypes.js';
import type { DType } from '../ir/dtypes.js';
import type { Pin } from '../ir/marks.js';
import { NO_ATTRS } from '../ir/node.js';
import type { NodeAttrs } from '../ir/node.js';
import { OPS } from '../ir/op-table.js';
import type { OpName } from '../ir/op-table.js';
import type { Shape } from '../ir/shape.js';
import { attrsKey } from './merge-common.js';

const OP_CODES = new Map(Object.keys(OPS).map((op, i) => [op as OpName, i]));
const DTYPE_CODES = new Map(DTYPES.map((d, i) => [d as DType, i]));

/** Strings named so far; past this many the table starts over. */
const NAMES_LIMIT = 1 << 16;

/**
 * The table of strings a cache's codes name (each Templates holds its own:
 * codes are compared only within one cache), bounded, in epochs.
 */
class Names {
  #epoch = 0;
  #names = new Map<string, number>();
  /** Codes of frozen shapes and of nodes' attributes objects, which nodes share: no string made for them again. */
  #shapes = new WeakMap<Shape, number>();
  #attrs = new WeakMap<NodeAttrs, number>();

  /** The epoch codes are made in now. */
  get epoch(): number {
    return this.#epoch;
  }

  name(s: string): number {
    let i = this.#names.get(s);
    if (i === undefined) {
      if (this.#names.size >= NAMES_LIMIT) {
        this.#epoch++;
        this.#names = new Map();
        this.#shapes = new WeakMap();
        this.#attrs = new WeakMap();
      }
      this.#names.set(s, (i = this.#names.size));
    }
    return i;
  }

  shape(shape: Shape): number {
    let c = this.#shapes.get(shape);
    if (c === undefined) {
      c = this.name(`s${shape.join(',')}`);
      if (Object.isFrozen(shape)) this.#shapes.set(shape, c);
    }
    return c;
  }

  attrs(a: NodeAttrs): number {
    if (a === NO_ATTRS) return -1;
    let c = this.#attrs.get(a);
    if (c === undefined) {
      c = this.name(`a${attrsKey(a)}`);
      // A node's attributes never change (nodes are immutable, though frozen only where tests run).
      this.#attrs.set(a, c);
    }
    return c;
  }
}

const opCode = (op: OpName): number => OP_CODES.get(op)!;
const dtypeCode = (d: DType): number => DTYPE_CODES.get(d)!;
const pinCode = (p: Pin | undefined): number => (p === undefined ? 0 : p === 'pin' ? 1 : 2);

/** A 32-bit hash of a code (murmur's mixing step per number). */
function hashCode(code: readonly number[]): number {
  let h = code.length | 0;
  for (const x of code) {
    h = Math.imul(h ^ (x | 0), 0x5bd1e995);
    h ^= h >>> 15;
  }
  return h >>> 0;
}

function sameCode(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export { Names, opCode, dtypeCode, pinCode, hashCode, sameCode };
