#!/usr/bin/env node
// npm run demo: bundles the demo page (esbuild, as a user's app would be bundled), puts the two
// worker files beside the bundle (esbuild leaves new URL(..., import.meta.url) alone), and
// serves the folder on http://127.0.0.1:8080/ with the headers that make the page cross-origin
// isolated (so it gets SharedArrayBuffer and the worker pool). The browser suite uses startDemo()
// and serveFolder().
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const HERE = fileURLToPath(new URL('./', import.meta.url));
const ROOT = join(HERE, '../..');
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.map': 'application/json', '.png': 'image/png' };

async function buildDemo() {
  mkdirSync(join(HERE, 'dist'), { recursive: true });
  await build({
    entryPoints: [join(HERE, 'main.js')], outfile: join(HERE, 'dist/main.js'), bundle: true, format: 'esm',
    platform: 'browser', target: 'es2022', sourcemap: true, logLevel: 'warning', nodePaths: [join(ROOT, 'packages')],
  });
  copyWorkerFiles(join(HERE, 'dist'));
}

/** The two files the package's workers load, copied beside a bundle (esbuild leaves their new URL() alone). */
function copyWorkerFiles(dir) {
  copyFileSync(join(ROOT, 'packages/kernels-wasm/dist/browser/comlink-worker.js'), join(dir, 'comlink-worker.js'));
  copyFileSync(join(ROOT, 'packages/deferred-array/dist/browser/host-functions.js'), join(dir, 'host-functions.js'));
}

/**
 * Serves `root`'s files on 127.0.0.1 (port 0: any free one), index.html for `/`, with the
 * headers that make a page cross-origin isolated unless `isolated` is false; resolves to
 * the server and its URL.
 */
async function serveFolder(root, { port = 0, isolated = true } = {}) {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const file = join(root, path.endsWith('/') ? `${path}index.html` : path);
    if (!file.startsWith(root) || !existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    const headers = { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' };
    if (isolated) Object.assign(headers, { 'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp' });
    res.writeHead(200, headers).end(readFileSync(file));
  });
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${server.address().port}/` };
}

/** Builds the page and serves it; resolves to the server and its URL. */
async function startDemo({ port = 8080, isolated = true } = {}) {
  await buildDemo();
  return serveFolder(HERE, { port, isolated });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { url } = await startDemo({ port: Number(process.env.PORT ?? 8080) });
  console.log(`The demo page: ${url} (cross-origin isolated; Ctrl-C stops the server)`);
}

export { startDemo, serveFolder, copyWorkerFiles };
