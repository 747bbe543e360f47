// What a generator may ask of the module it is emitting into besides its own
// function body: scalar helpers (the Payne-Hanek reduction, its digit table)
// that are defined once per module and called from the vector code.
import type { ModuleBuilder } from '../encode/module-builder.js';

interface MathContext {
  /** The index of helper `key`, defining it with `define` the first time this module asks. */
  helper(key: string, define: (m: ModuleBuilder) => number): number;
}

export type { MathContext };
