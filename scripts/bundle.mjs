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
// milliseconds instead of hundreds of small modules.
// Usage: node ../../scripts/bundle.mjs [--stdlib]   (from the package's folder)
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

const dir = process.cwd();
const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
const external = Object.keys(pkg.dependencies ?? {}).flatMap((d) => [d, `${d}/*`]);

await build({
  entryPoints: [join(dir, 'dist/index.js')],
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

if (process.argv.includes('--stdlib')) {
  await build({
    entryPoints: [join(dir, 'src/stdlib-pieces.cjs')],
    outfile: join(dir, 'dist/stdlib-pieces.cjs'),
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    minify: true,
    legalComments: 'linked',
    logLevel: 'warning',
  });
}
