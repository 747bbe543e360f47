// The browser suite: deferred-array's browser build, bundled by esbuild as a user's app would
// be, in headless Chromium (Debian's, driven by playwright-core), against the same scenarios
// run in Node (scenarios.js): the NEP examples, a sample of the API suite, the worker pool's
// determinism (1, 2 and 4 workers), worker faults, and a page without cross-origin isolation.
// `npm test` installs Chromium where it can (scripts/ensure-chromium.mjs); where it could not,
// this suite is skipped with one loud line.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import { build as viteBuild } from 'vite';
import webpack from 'webpack';
import type { Browser, Page } from 'playwright-core';
import * as da from 'deferred-array';
import * as scenarios from './scenarios.js';
// @ts-expect-error: a plain ES module of the example's (no types)
import { copyWorkerFiles as copyWorkerFilesUntyped, serveFolder as serveFolderUntyped, startDemo as startDemoUntyped } from '../../examples/browser/serve.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const NPY = join(ROOT, 'packages/deferred-array/test/fixtures/npy');
const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium) {
  console.warn(`\n*** THE BROWSER SUITE IS SKIPPED: no Chromium at ${CHROMIUM}. npm test installs Debian's chromium where apt-get can; ` +
    'install it (apt-get install -y chromium) or set CHROMIUM_PATH. ***\n');
}

type Scenarios = typeof scenarios;
type Call = <K extends keyof Scenarios>(page: Page, name: K, ...args: unknown[]) => Promise<Awaited<ReturnType<Scenarios[K]>>>;

const call: Call = (page, name, ...args) =>
  page.evaluate(([n, a]) => (window as unknown as { scenarios: Record<string, (...x: unknown[]) => unknown> }).scenarios[n as string]!(...(a as unknown[])), [name, args] as const) as never;

type Served = { readonly server: Server; readonly url: string };
const serveFolder = serveFolderUntyped as (root: string, o?: { port?: number; isolated?: boolean }) => Promise<Served>;
const startDemo = startDemoUntyped as (o?: { port?: number; isolated?: boolean }) => Promise<Served>;
const copyWorkerFiles = copyWorkerFilesUntyped as (dir: string) => void;

/** A page that loads one script (a module, unless webpack's classic bundle). */
const indexHtml = (script: string, module = true): string =>
  `<!doctype html><meta charset="utf-8"><title>deferred-array</title><link rel="icon" href="data:,"><script${module ? ' type="module"' : ''} src="./${script}"></script>\n`;

let dir: string;
/** The page's folder served cross-origin isolated, and again without those headers. */
let isolated: Served;
let plain: Served;
let browser: Browser;

/** The page's folder: the app bundle, the worker files beside it (esbuild leaves new URL() alone), and the fault host. */
async function buildPage(): Promise<void> {
  dir = mkdtempSync(join(tmpdir(), 'da-browser-'));
  const common = { bundle: true, format: 'esm', platform: 'browser', logLevel: 'silent', nodePaths: [join(ROOT, 'packages')] } as const;
  const app = await build({ ...common, entryPoints: [join(ROOT, 'test/browser/page.js')], outfile: join(dir, 'page.js') });
  // The bar: bundling the package for the browser warns about no Node built-in.
  expect(app.warnings).toEqual([]);
  await build({ ...common, entryPoints: [join(ROOT, 'test/browser/fault-host.js')], outfile: join(dir, 'fault-host.js') });
  copyWorkerFiles(dir);
  writeFileSync(join(dir, 'index.html'), indexHtml('page.js'));
  // NumPy-written files the page fetches.
  mkdirSync(join(dir, 'npy'));
  for (const f of ['float64-be-f.npy', 'pair-compressed.npz']) copyFileSync(join(NPY, f), join(dir, 'npy', f));
  cpSync(join(ROOT, 'packages/deferred-array/test/fixtures/zarr'), join(dir, 'zarr'), { recursive: true });
}

/**
 * An app as a user of a bundler writes it: the package installed in its node_modules (a link
 * to this workspace's), the page entry and the scenarios, and nothing configured.
 */
function appFolder(name: string): string {
  const app = join(dir, name);
  mkdirSync(join(app, 'node_modules'), { recursive: true });
  symlinkSync(join(ROOT, 'packages/deferred-array'), join(app, 'node_modules/deferred-array'), 'dir');
  copyFileSync(join(ROOT, 'test/browser/page.js'), join(app, 'page.js'));
  copyFileSync(join(ROOT, 'test/browser/scenarios.js'), join(app, 'scenarios.js'));
  return app;
}

const BUNDLERS: Record<string, (app: string) => Promise<string>> = {
  vite: async (app) => {
    writeFileSync(join(app, 'index.html'), indexHtml('page.js'));
    await viteBuild({ root: app, logLevel: 'silent', configFile: false, build: { outDir: join(app, 'dist') } });
    return join(app, 'dist');
  },
  webpack: async (app) => {
    const out = join(app, 'dist');
    const stats = await new Promise<webpack.Stats>((resolve, reject) => {
      const compiler = webpack({ mode: 'production', target: 'web', entry: join(app, 'page.js'), context: app, output: { path: out, filename: 'page.js' }, devtool: false, performance: { hints: false } });
      compiler.run((err, st) => { compiler.close(() => undefined); if (err || !st) reject(err); else resolve(st); });
    });
    const info = stats.toJson({ all: false, errors: true, warnings: true });
    expect([...(info.errors ?? []), ...(info.warnings ?? [])].map((e) => e.message)).toEqual([]);
    writeFileSync(join(out, 'index.html'), indexHtml('page.js', false));
    return out;
  },
};

/** A fresh page at `url` (its own copy of the package), once its scenarios are ready, with what it logs. */
async function open(url: string, before?: string): Promise<{ page: Page; logs: string[] }> {
  const page = await browser.newPage();
  const logs: string[] = [];
  page.on('console', (m) => logs.push(`${m.type()}: ${m.text()}`));
  page.on('pageerror', (e) => logs.push(`pageerror: ${e.message}`));
  if (before) await page.addInitScript(before);
  await page.goto(url);
  await page.waitForFunction(() => (window as unknown as { ready?: boolean }).ready === true, undefined, { timeout: 20_000 });
  return { page, logs };
}

(haveChromium ? describe : describe.skip)('in Chromium', () => {
  beforeAll(async () => {
    await buildPage();
    [isolated, plain] = await Promise.all([serveFolder(dir), serveFolder(dir, { isolated: false })]);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-background-networking', '--disable-gpu', '--disable-component-update', '--no-first-run'],
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    for (const s of [isolated, plain]) await new Promise((resolve) => s?.server.close(resolve));
    if (dir) rmSync(dir, { recursive: true, force: true });
    await da.shutdown();
  });

  test('the NEP examples print and compute as in Node', async () => {
    const { page, logs } = await open(isolated.url);
    expect(await page.evaluate(() => globalThis.crossOriginIsolated)).toBe(true);
    expect(await call(page, 'nep')).toEqual(await scenarios.nep(da));
    expect(logs.filter((l) => l.startsWith('pageerror') || l.startsWith('error'))).toEqual([]);
    await page.close();
  }, 60_000);

  test('NumPy\'s files from a fetched Response, and saved to bytes (a path too: a page has no file system), bit for bit Node\'s', async () => {
    const { page, logs } = await open(isolated.url);
    const fromFile = (name: string): Response => new Response(readFileSync(join(NPY, name)));
    const node = await scenarios.npy(da, fromFile);
    const r = await call(page, 'npy', './npy/');
    expect({ ...r, pathGivesBytes: 'node' }).toEqual(node);
    expect(r.pathGivesBytes).toBe(true);
    expect(logs.filter((l) => l.startsWith('pageerror') || l.startsWith('error'))).toEqual([]);
    await page.close();
  }, 60_000);

  test('Zarr stores over HTTP (Blosc and Zstd through their WebAssembly codecs, Fortran order, v3), bit for bit Node\'s from the folder', async () => {
    const { page, logs } = await open(isolated.url);
    const node = await scenarios.zarr(da, `${join(ROOT, 'packages/deferred-array/test/fixtures/zarr')}/`);
    expect(await call(page, 'zarr', new URL('./zarr/', isolated.url).href)).toEqual(node);
    // zarrita asks for a v3 store's zarr.json before a v2 store's .zarray: those 404s are its probes, not errors.
    expect(logs.filter((l) => (l.startsWith('pageerror') || l.startsWith('error')) && !l.includes('status of 404'))).toEqual([]);
    await page.close();
  }, 60_000);

  test('a sample of the API suite gives Node\'s bits: broadcasting, axes, where, strides, casts, writes, joins, products, special values, empty and 0-d', async () => {
    const { page } = await open(isolated.url);
    expect(await call(page, 'api')).toEqual(scenarios.api(da));
    await page.close();
  }, 60_000);

  test('compiled calls over ordinary arrays give Node\'s bits, on the private heap as in Node', async () => {
    const { page } = await open(isolated.url);
    const node = scenarios.compiled(da);
    expect(node.privateHeap).toBe(true);
    expect(await call(page, 'compiled')).toEqual(node);
    await page.close();
  }, 60_000);

  test('sorting and linear algebra give Node\'s bits before their routines have loaded (the reference runs them), in execute(), which waits for them, and after', async () => {
    const { page, logs } = await open(isolated.url);
    const node = await scenarios.routines(da);
    expect([node.pooled, node.after]).toEqual([node.first, node.first]);
    expect(await call(page, 'routines')).toEqual(node);
    expect(logs.filter((l) => l.startsWith('pageerror') || l.startsWith('error') || l.startsWith('warning'))).toEqual([]);
    await page.close();
  }, 60_000);

  test('the heap gives its memory back after an idle time and at shutdown(): the workers take up the new memory, the bits stay Node\'s', async () => {
    const { page } = await open(isolated.url);
    const node = await scenarios.trim(da, 2);
    for (const threads of [1, 2]) {
      const r = await call(page, 'trim', threads);
      expect([r.afterIdle, r.afterShutdown]).toEqual([r.before, r.before]);
      expect(r.before).toBe(node.before);
      expect(r.grown).toBe(true);
      expect(r.idle).toEqual({ shrinks: 1, heapBytes: 4 * 2 ** 20 });
      expect(r.down).toEqual({ shrinks: 2, heapBytes: 4 * 2 ** 20 });
      expect(r.rebound).toBe(true);
    }
    // Node's side runs on the file's default runtime, where earlier scenarios' mutable arrays may still
    // hold the heap (they go when collected): only its bits are compared here; wasm/heap-trim.test.ts
    // covers the trim in Node.
    expect([node.afterIdle, node.afterShutdown]).toEqual([node.before, node.before]);
    await page.close();
  }, 120_000);

  test('the pool over module Web Workers: 1, 2 and 4 workers give the same bits as each other and as Node (scans too), and more than one worker runs blocks', async () => {
    const { page } = await open(isolated.url);
    const runs = [];
    for (const threads of [1, 2, 4]) runs.push(await call(page, 'pool', threads));
    const node = await scenarios.pool(da, 2);
    for (const r of runs) {
      expect(r.total).toBe(node.total);
      expect(r.values).toBe(node.values);
      expect(r.scans).toBe(node.scans);
    }
    // 2^21 elements are 128 blocks, claimed by whichever worker (or the calling thread) is free:
    // with 2 and 4 workers, more than one worker took some.
    expect(runs[1]!.blocks).toHaveLength(2);
    expect(runs[2]!.blocks).toHaveLength(4);
    for (const r of runs.slice(1)) expect(r.blocks.filter((b) => b > 0).length).toBeGreaterThan(1);
    await page.close();
  }, 120_000);

  test.each([[13, /injected failure in a host function/], [19, /unreachable/]] as const)(
    'a worker failing mid-kernel (cue %i): execute() rejects with a WorkerError, and the next executes are right',
    async (cue, cause) => {
      const { page } = await open(isolated.url, `window.DEFERRED_ARRAY_HOST_MODULE = new URL('./fault-host.js', location.href).href;`);
      const r = await call(page, 'fault', cue);
      expect(r.name).toBe('WorkerError');
      expect(r.code).toBe('WORKER');
      expect(r.message).toMatch(cause);
      expect(r.recovered).toBe(true);
      await page.close();
    },
    60_000,
  );

  test.each(Object.keys(BUNDLERS))('%s builds an app that uses it with no configuration: the workers ship, the pool runs, the bits are Node\'s', async (name) => {
    const served = await serveFolder(await BUNDLERS[name]!(appFolder(name)));
    const { page, logs } = await open(served.url);
    const scripts: string[] = [];
    page.on('request', (q) => { if (q.resourceType() === 'script') scripts.push(q.url()); });
    try {
      const r = await call(page, 'pool', 2);
      const node = await scenarios.pool(da, 2);
      expect(r.total).toBe(node.total);
      expect(r.blocks.filter((b) => b > 0).length).toBe(2);
      expect(await call(page, 'nep')).toEqual(await scenarios.nep(da));
      // The routines are a chunk of their own, fetched by the first run that sorts or solves, not before.
      const before = scripts.length;
      expect(await call(page, 'routines')).toEqual(await scenarios.routines(da));
      expect(scripts.slice(before).length).toBeGreaterThan(0);
      expect(logs).toEqual([]);
    } finally {
      await page.close();
      await new Promise((resolve) => served.server.close(resolve));
    }
  }, 120_000);

  test('the demo page (examples/browser, npm run demo): the NEP example, the plot of the benchmark, the workers', async () => {
    const demo = await startDemo({ port: 0 });
    const page = await browser.newPage({ viewport: { width: 1000, height: 1400 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    try {
      await page.goto(demo.url);
      await page.waitForFunction(() => (window as unknown as { demoDone?: boolean }).demoDone === true, undefined, { timeout: 90_000 });
      expect(errors).toEqual([]);
      expect(await page.textContent('#graph')).toContain('= sum(%3)');
      expect(await page.textContent('#plan')).toContain('1 fused kernel(s)');
      expect(await page.textContent('#value')).toMatch(/^value: 4\.4550297643806/);
      expect(await page.textContent('#env')).toContain('cross-origin isolated: yes');
      expect(await page.locator('#plot polyline').count()).toBe(2);
      expect(await page.locator('#table tr').count()).toBe(7);
      expect(await page.textContent('#status')).toMatch(/blocks each worker ran: \d+, \d+/);
      // The README shows the page: UPDATE_SCREENSHOT=1 writes it beside the example.
      const shot = process.env['UPDATE_SCREENSHOT'] === '1' ? join(ROOT, 'examples/browser/screenshot.png') : join(dir, 'screenshot.png');
      await page.screenshot({ path: shot, fullPage: true });
      expect(readFileSync(shot).subarray(1, 4).toString()).toBe('PNG');
    } finally {
      await page.close();
      await new Promise((resolve) => demo.server.close(resolve));
    }
  }, 120_000);

  test('without cross-origin isolation: one warning, every kernel on the calling thread, the same bits', async () => {
    const { page, logs } = await open(plain.url);
    expect(await page.evaluate(() => globalThis.crossOriginIsolated)).toBe(false);
    expect(await call(page, 'api')).toEqual(scenarios.api(da));
    // No shared heap: nothing to gain from a private one.
    expect(await call(page, 'compiled')).toEqual({ ...scenarios.compiled(da), privateHeap: false });
    const r = await call(page, 'pool', 2);
    const node = await scenarios.pool(da, 2);
    expect(r.total).toBe(node.total);
    expect(r.values).toBe(node.values);
    expect(r.blocks).toEqual([]);
    const warnings = logs.filter((l) => l.includes('no shared memory'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('Cross-Origin-Opener-Policy: same-origin');
    await page.close();
  }, 60_000);
});
