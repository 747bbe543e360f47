#!/usr/bin/env node
// The build's second step, after tsc: bundles a package's dist/index.js (the
// JavaScript tsc emitted, source maps followed) into one module in place,
// so that importing the package reads a handful of files instead of a
// hundred and fifty. Its dependencies stay outside (one copy of kernels-wasm
// for everyone; piscina and comlink loaded only by the pool, through the
// dynamic imports that become chunks of their own). Every file tsc emitted
// stays in dist/: the type declarations, and the modules workers load by path.
// With --stdlib, also bundles src/stdlib-pieces.cjs (the @stdlib subpaths the
// package uses) into dist/stdlib-pieces.cjs, one file that loads in
// milliseconds instead of hundreds of small modules (and, with --browser,
// into dist/stdlib-pieces.browser.cjs from the packages' browser sides).
// With --browser ENTRY..., also writes the browser build (dist/browser/, the
// package's "browser" export): the same modules, except that each X.js with
// an X.browser.js beside it is swapped for that one (host-specific code:
// pools, workers, the platform), so no Node module is reached; and each
// ENTRY (a module workers load by URL, path under dist/ without .js) as one
// self-contained file beside the bundle (dist/browser/NAME.js), where the
// bundle's new URL('./NAME.js', import.meta.url) finds it.
// With --entry NAME (repeatable), dist/NAME.js is a public entry beside
// index.js (a subpath export, kernels-wasm/routines): bundled in the same
// build, so that the code both reach lies in chunks they share (one copy of
// each module, its state included) and a page's bundler can load NAME's own
// code on demand.
// Usage: node ../../scripts/bundle.mjs [--stdlib] [--entry NAME]... [--browser ENTRY...]   (from the package's folder)
import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { build } from 'esbuild';

const dir = process.cwd();
const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
const external = Object.keys(pkg.dependencies ?? {}).flatMap((d) => [d, `${d}/*`]);
// The chunks of earlier builds (their names end in a content hash) and the
// browser build would otherwise pile up in dist/ and ship with the package.
for (const f of readdirSync(join(dir, 'dist'))) if (/-[A-Z0-9]{8}\.js(\.map)?$/.test(f)) rmSync(join(dir, 'dist', f));
rmSync(join(dir, 'dist/browser'), { recursive: true, force: true });

/** The public entries: index, and each --entry NAME. */
const publicEntries = ['index', ...process.argv.flatMap((a, i) => (a === '--entry' ? [process.argv[i + 1]] : []))].map((name) => {
  if (!name || name.startsWith('--')) throw new Error('bundle.mjs: --entry needs the name of a module under dist/ (without .js), as in --entry routines');
  return join(dir, 'dist', `${name}.js`);
});

/**
 * @stdlib's complex typed arrays, which the ndarray constructor requires for
 * its complex dtypes, as a class that throws if made: the package has no
 * complex dtype (docs/limitations.md), and they were 5 KiB gzip of a page.
 * Nothing is an instance of it, so the dtype checks that test arrays
 * against it answer no, as they do for every array the package makes.
 */
const noComplexArrays = {
  name: 'no-complex-arrays',
  setup(b) {
    b.onResolve({ filter: /complex(64|128)$/ }, (args) => {
      const target = args.path.startsWith('.') ? resolve(args.resolveDir, args.path) : args.path;
      return /@stdlib[\\/]array[\\/]complex(64|128)$/.test(target) ? { path: target, namespace: 'no-complex-arrays' } : undefined;
    });
    b.onLoad({ filter: /.*/, namespace: 'no-complex-arrays' }, (args) => ({
      contents: `module.exports = class ComplexArrayLeftOut { constructor() { throw new Error('${basename(args.path)} arrays are left out of deferred-array, which has no complex dtype'); } };`,
      loader: 'js',
    }));
  },
};

if (process.argv.includes('--stdlib')) {
  const pieces = { entryPoints: [join(dir, 'src/stdlib-pieces.cjs')], bundle: true, format: 'cjs', minify: true, legalComments: 'linked', logLevel: 'warning', plugins: [noComplexArrays] };
  await build({ ...pieces, outfile: join(dir, 'dist/stdlib-pieces.cjs'), platform: 'node', target: 'node20' });
  // The browser build's copy. @stdlib requires Node's 'buffer' where the host has Node buffers
  // and its own polyfill elsewhere; an empty 'buffer' here makes that check take the polyfill.
  const noNodeBuffer = {
    name: 'no-node-buffer',
    setup(b) {
      b.onResolve({ filter: /^buffer$/ }, () => ({ path: 'buffer', namespace: 'no-node-buffer' }));
      b.onLoad({ filter: /.*/, namespace: 'no-node-buffer' }, () => ({ contents: 'module.exports = {};', loader: 'js' }));
    },
  };
  if (process.argv.includes('--browser')) {
    await build({ ...pieces, outfile: join(dir, 'dist/stdlib-pieces.browser.cjs'), platform: 'browser', target: 'es2022', plugins: [noComplexArrays, noNodeBuffer] });
  }
}

/** Resolves a relative import of X.js to X.browser.js where that file exists. */
const browserSwap = {
  name: 'browser-swap',
  setup(b) {
    b.onResolve({ filter: /^\.\.?\/.*\.js$/ }, (args) => {
      const target = resolve(args.resolveDir, args.path);
      const swapped = target.replace(/\.js$/, '.browser.js');
      return existsSync(swapped) ? { path: swapped } : undefined;
    });
  },
};

const browserAt = process.argv.indexOf('--browser');
if (browserAt >= 0) {
  const entries = process.argv.slice(browserAt + 1);
  const stop = entries.findIndex((a) => a.startsWith('--'));
  if (stop >= 0) entries.length = stop;
  const common = { bundle: true, format: 'esm', platform: 'browser', target: 'es2022', sourcemap: true, plugins: [browserSwap], logLevel: 'warning' };
  await build({
    ...common,
    entryPoints: publicEntries,
    outdir: join(dir, 'dist/browser'),
    splitting: true,
    external,
    chunkNames: '[name]-[hash]',
  });
  for (const entry of entries) {
    await build({ ...common, entryPoints: [join(dir, 'dist', `${entry}.js`)], outfile: join(dir, 'dist/browser', `${basename(entry)}.js`) });
  }
}

// Last: the Node bundle overwrites dist/index.js, which the browser build reads as tsc wrote it.
await build({
  entryPoints: publicEntries,
  outdir: join(dir, 'dist'),
  allowOverwrite: true,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external,
  sourcemap: true,
  // Beside index.js: package-root.ts may land in a chunk, and resolves paths from its own folder.
  chunkNames: '[name]-[hash]',
  logLevel: 'warning',
});
