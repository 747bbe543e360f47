import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { build } from 'esbuild';
const pkg = process.argv[2] ?? 'deferred-array';
const browserSwap = { name: 'bs', setup(b) { b.onResolve({ filter: /^\.\.?\/.*\.(js|cjs)$/ }, (args) => {
  if (args.path.endsWith('.cjs')) { const d = resolve(args.resolveDir, args.path).replace('/src/', '/dist/'); return existsSync(d) ? { path: d } : undefined; }
  const t = resolve(args.resolveDir, args.path).replace(/\.js$/, '.ts'); const s = t.replace(/\.ts$/, '.browser.ts'); return existsSync(s) ? { path: s } : existsSync(t) ? { path: t } : undefined; }); } };
const r = await build({ entryPoints: [`packages/${pkg}/src/index.ts`], bundle: true, format: 'esm', platform: 'browser', minify: true, splitting: true, outdir: '/tmp/pa2', write: false, metafile: true, logLevel: 'silent', plugins: [browserSwap], external: ['kernels-wasm', 'kernels-wasm/*', 'piscina', 'comlink'] });
const entry = Object.entries(r.metafile.outputs).find(([, o]) => o.entryPoint);
const atStart = new Set(); const visit = (k) => { if (atStart.has(k) || !r.metafile.outputs[k]) return; atStart.add(k); for (const i of r.metafile.outputs[k]?.imports ?? []) if (i.kind === 'import-statement') visit(i.path); };
visit(entry[0]);
const all = {}; let tot = 0;
for (const k of atStart) { tot += r.metafile.outputs[k].bytes; for (const [inp, v] of Object.entries(r.metafile.outputs[k].inputs)) all[inp] = (all[inp] ?? 0) + v.bytesInOutput; }
console.log('at start', (tot / 1024).toFixed(1), 'KiB in', atStart.size, 'files');
const dirs = new Map();
for (const [inp, v] of Object.entries(all)) { const d = inp.replace(/^packages\/[a-z-]+\/src\//, '').replace(/\/[^/]+$/, ''); dirs.set(d, (dirs.get(d) ?? 0) + v); }
for (const [d, b] of [...dirs].sort((a, b) => b[1] - a[1])) console.log((b / 1024).toFixed(1).padStart(8), d);
for (const [inp, v] of Object.entries(all).sort((a, b) => b[1] - a[1]).slice(0, +(process.argv[3] ?? 30))) console.log((v / 1024).toFixed(1).padStart(8), inp);
