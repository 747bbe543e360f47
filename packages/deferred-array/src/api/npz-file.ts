// What da.load gives for an .npz file: its arrays by name, each read from
// the archive when first used and kept after.
import { FileFormatError } from '../ir/errors.js';
import type { DeferredArray } from './deferred-array.js';

/**
 * The arrays of an .npz file, by name: each member an enumerable property,
 * read at first use. `files` lists them and `get(name)` reads one, saying
 * which names there are when there is none of that name (a member called
 * `files` or `get` hides these; `NpzFile.prototype.get.call(z, 'get')` still reaches it).
 */
class NpzFile {
  readonly #names: readonly string[];
  readonly #where: string;
  readonly #read: (name: string) => DeferredArray;

  /** `read(name)` reads the member; `where` names the archive in errors. */
  constructor(names: readonly string[], read: (name: string) => DeferredArray, where: string) {
    this.#names = names;
    this.#where = where;
    this.#read = read;
    const kept = new Map<string, DeferredArray>();
    for (const name of names) {
      // A member named then would make the archive look like a promise to await: get('then') reads it.
      if (name === 'then') continue;
      Object.defineProperty(this, name, {
        enumerable: true,
        get: () => {
          let x = kept.get(name);
          if (!x) kept.set(name, (x = read(name)));
          return x;
        },
      });
    }
    Object.freeze(this);
  }

  /** The members' names, in the archive's order. */
  get files(): readonly string[] {
    return this.#names;
  }

  /** Member `name`; a FileFormatError naming the members when there is none of that name. */
  get(name: string): DeferredArray {
    if (!this.#names.includes(name)) {
      const names = this.#names.length ? this.#names.map((n) => `'${n}'`).join(', ') : 'none';
      throw new FileFormatError(`${this.#where} has no array '${name}'; its arrays are ${names}`);
    }
    return name === 'then' ? this.#read(name) : (this as unknown as Record<string, DeferredArray>)[name]!;
  }
}

/** An .npz file's arrays, by name, as a record: `z.a`, `const { a, b } = z`, `z.files`, `z.get('a')`. */
type NpzRecord = NpzFile & { readonly [name: string]: DeferredArray | undefined };

export { NpzFile };
export type { NpzRecord };
