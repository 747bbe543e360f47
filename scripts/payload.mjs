#!/usr/bin/env node
// What `import * as da from 'deferred-array'` costs a page: the package's
// browser build bundled by esbuild as an app would (minified, code split),
// the chunks the page loads at start (the entry and what it imports
// statically; chunks loaded on demand, such as the Zarr codecs, apart), and
// the two files loaded beside it (the pool's worker and the kernels' host
// functions), each minified and gzipped. Run after `npm run build`; prints
// JSON, or a table with --table. test/payload-size.test.ts holds the bar.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, transform } from 'esbuild';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const WORKER_FILES = ['packages/kernels-wasm/dist/browser/comlink-worker.js', 'packages/deferred-array/dist/browser/host-functions.js'];

async function payload() {
  const dir = mkdtempSync(join(tmpdir(), 'da-payload-'));
  try {
    writeFileSync(join(dir, 'app.js'), "import * as da from 'deferred-array';\nglobalThis.da = da;\n");
    const r = await build({
      entryPoints: ['app.js'], absWorkingDir: dir, bundle: true, format: 'esm', platform: 'browser', minify: true, splitting: true,
      outdir: 'out', write: false, metafile: true, logLevel: 'silent', nodePaths: [join(ROOT, 'packages')],
    });
    const gz = (bytes) => gzipSync(bytes, { level: 9 }).length;
    const contents = new Map(r.outputFiles.map((f) => [f.path, f.contents]));
    // The entry and the chunks it imports statically, transitively: what the page loads before its first line runs.
    const atStart = new Set();
    const visit = (key) => {
      if (atStart.has(key)) return;
      atStart.add(key);
      for (const i of r.metafile.outputs[key]?.imports ?? []) if (i.kind === 'import-statement') visit(i.path);
    };
    const outputs = Object.keys(r.metafile.outputs).filter((k) => k.endsWith('.js'));
    // The app's own entry: the chunks a dynamic import reaches are entry points of the metafile too.
    visit(outputs.find((k) => r.metafile.outputs[k].entryPoint === 'app.js'));
    const app = [...atStart].map((key) => {
      const c = contents.get(join(dir, key));
      return { file: key, bytes: c.length, gzip: gz(c) };
    });
    const onDemand = outputs.length - atStart.size;
    const workers = [];
    for (const f of WORKER_FILES) {
      const min = (await transform(readFileSync(join(ROOT, f), 'utf8'), { minify: true, format: 'esm' })).code;
      workers.push({ file: f, bytes: min.length, gzip: gz(min) });
    }
    const total = [...app, ...workers].reduce((s, f) => s + f.gzip, 0);
    return { app, workers, onDemand, totalGzip: total };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const p = await payload();
if (process.argv.includes('--table')) {
  const kib = (b) => `${(b / 1024).toFixed(1)} KiB`;
  for (const f of [...p.app, ...p.workers]) console.log(`${f.file.padEnd(60)} ${kib(f.bytes).padStart(11)} minified ${kib(f.gzip).padStart(10)} gzip`);
  console.log(`${'at start, in all'.padEnd(60)} ${''.padStart(20)} ${kib(p.totalGzip).padStart(10)} gzip   (${p.onDemand} chunks more loaded on demand)`);
} else {
  console.log(JSON.stringify(p));
}

export { payload };
