// A system the peer benchmark times: deferred-array, a hand-written loop, or
// a library a user might pick instead. Each writes every case the way its
// users would, in a process of its own (peers/child.ts).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CaseSpec } from '../cases.js';

/** A result as it reaches the user: a number, or the elements of an array. */
type Result = number | ArrayLike<number>;

interface Built {
  /** One timed call: the work and the way its result reaches the user. */
  run(): unknown;
  /** The result of one call from the case's starting state, as plain numbers, for the check. */
  result(): Result | Promise<Result>;
}

interface System {
  readonly label: string;
  readonly dtype: 'float64' | 'float32';
  /** Loads the library (throws with the reason it cannot); returns its version and anything the reader should know. */
  load(): Promise<{ readonly version: string; readonly note?: string }>;
  /** The case at size n, or the reason this system does not have it. */
  build(c: CaseSpec, n: number): Promise<Built | string>;
}

/**
 * The installed version of package `name`: its package.json is found by
 * walking up from its entry point (some packages' exports hide it).
 */
function packageVersion(name: string): string {
  // ESM resolution: some packages export only an `import` entry.
  let dir = dirname(fileURLToPath(import.meta.resolve(name)));
  for (;;) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version: string };
      if (pkg.name === name) return pkg.version;
    }
    if (dirname(dir) === dir) throw new Error(`no package.json of ${name} above its entry point`);
    dir = dirname(dir);
  }
}

export { packageVersion };
export type { System, Built, Result };
