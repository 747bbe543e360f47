// What each package's build ships: every module tsc compiles for dist/ must be
// reachable from the package's entry points (imports, dynamic imports, and
// modules named by path for workers and bundles), so that test helpers, which
// only tests reach, stay out of dist/. A helper a test needs goes into the
// package's tsconfig.build.json `exclude`.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Files under `dir`, recursively, as absolute paths. */
function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

/** tsconfig.build.json's exclude entries, as paths relative to the package (no globs but the test pattern). */
function excluded(pkgDir: string): Set<string> {
  const config = JSON.parse(readFileSync(join(pkgDir, 'tsconfig.build.json'), 'utf8')) as { exclude?: string[] };
  return new Set((config.exclude ?? []).filter((e) => !e.includes('*')));
}

/** The package's public entries (package.json's exports, each dist/X.js) as their sources (src/X.ts). */
function publicEntries(pkgDir: string): string[] {
  const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')) as { exports: Record<string, string | { import?: string }> };
  return Object.values(pkg.exports)
    .map((e) => (typeof e === 'string' ? e : e.import))
    .filter((p): p is string => p !== undefined && /^\.\/dist\/.*\.js$/.test(p))
    .map((p) => join(pkgDir, p.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts')));
}

/** The modules tsc compiles into dist/: sources, less tests and the excluded files. */
function built(pkgDir: string): string[] {
  const skip = excluded(pkgDir);
  return walk(join(pkgDir, 'src'))
    .filter((f) => /\.c?ts$/.test(f) && !f.endsWith('.d.ts') && !f.endsWith('.d.cts') && !f.endsWith('.test.ts'))
    .filter((f) => !skip.has(relative(pkgDir, f)));
}

const SPECIFIER = /(?:from\s+|import\s*\(\s*|require\s*\(\s*|new URL\(\s*)['"`](\.{1,2}\/[^'"`$]+)['"`]/g;
const LITERAL = /['"`]([\w./-]+)['"`]/g;

/** The built modules reachable from the entries: by relative import, or named in a string (worker and bundle entries). */
function reachable(files: readonly string[], entries: readonly string[]): Set<string> {
  const byPath = new Map(files.map((f) => [f.replace(/\.c?ts$/, ''), f]));
  const byName = new Map<string, string[]>();
  for (const f of files) {
    const stem = basename(f).replace(/\.c?ts$/, '');
    byName.set(stem, [...(byName.get(stem) ?? []), f]);
  }
  const seen = new Set<string>();
  const queue = [...entries];
  while (queue.length > 0) {
    const file = queue.pop();
    if (file === undefined || seen.has(file)) continue;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    for (const [, spec] of text.matchAll(SPECIFIER)) {
      const target = byPath.get(resolve(dirname(file), spec!).replace(/\.c?js$/, ''));
      if (target !== undefined) queue.push(target);
    }
    for (const [, literal] of text.matchAll(LITERAL)) {
      for (const f of byName.get(basename(literal!).replace(/\.c?js$/, '')) ?? []) queue.push(f);
    }
  }
  return seen;
}

describe.each(['deferred-array', 'kernels-wasm'])('the %s build', (name) => {
  const pkgDir = join(root, 'packages', name);

  test('ships only modules its entry points reach (test helpers are excluded from tsconfig.build.json)', () => {
    const files = built(pkgDir);
    // The package's public entries (its index, kernels-wasm/routines, ...), and each browser twin the bundler swaps in for its Node module.
    const publics = new Set(publicEntries(pkgDir));
    const entries = files.filter((f) => publics.has(f) || f.endsWith('.browser.ts'));
    const reached = reachable(files, entries);
    const unreached = files.filter((f) => !reached.has(f)).map((f) => relative(pkgDir, f));
    expect(unreached).toEqual([]);
  });

  test('each subpath export with a browser build is an --entry of the bundle, so that it shares the index\'s modules (and their state) rather than copying them', () => {
    const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')) as { exports: Record<string, string | { browser?: string }>; scripts: { build: string } };
    const entries = [...pkg.scripts.build.matchAll(/--entry\s+(\S+)/g)].map((m) => m[1]!);
    const browserSubpaths = Object.entries(pkg.exports)
      .filter(([key, e]) => key !== '.' && typeof e === 'object' && e.browser !== undefined)
      .map(([, e]) => (e as { browser: string }).browser.replace(/^\.\/dist\/browser\//, '').replace(/\.js$/, ''));
    expect(browserSubpaths.sort()).toEqual(entries.sort());
  });

  test("tsconfig.build.json's excluded files exist (a renamed helper would slip back in)", () => {
    const missing = [...excluded(pkgDir)].filter((e) => {
      try {
        return !statSync(join(pkgDir, e)).isFile();
      } catch {
        return true;
      }
    });
    expect(missing).toEqual([]);
  });
});
