// The built package, loaded through its package.json `exports`, against the
// contract in shared/api.md: every name the contract gives must be exported,
// except the ones whose issues have not landed yet (listed, so that landing
// one means moving it out of PENDING).
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pkgDir = join(root, 'packages', 'deferred-array');
const apiMd = join(root, '..', 'shared', 'api.md');

/** api.md names whose machinery is not built yet: landing one means moving it out of here. */
const PENDING = new Set<string>([
]);

const ELEMENTWISE = `add sub subtract multiply mul divide div floorDivide mod power pow negative neg abs sign sqrt cbrt square
  reciprocal exp expm1 exp2 log log1p log2 log10 sin cos tan asin acos atan atan2 sinh cosh tanh hypot floor ceil
  round trunc minimum maximum clip equal eq notEqual ne less lt lessEqual le greater gt greaterEqual ge logicalAnd
  logicalOr logicalXor logicalNot isnan isinf isfinite where`.split(/\s+/).filter(Boolean);
const REDUCTIONS = 'sum prod min max mean any all argmin argmax'.split(' ');
const METHODS = 'reshape transpose get squeeze expandDims astype matmul dot outer output pin pinCse execute executeSync explain toDot dispose assign iadd isub imul idiv set'.split(' ');

type Module = Record<string, unknown>;

async function load(): Promise<Module> {
  const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')) as { exports: { '.': { import: string } } };
  const entry = join(pkgDir, pkg.exports['.'].import);
  if (!existsSync(entry)) throw new Error(`${entry} is missing: run the build (npm test does) before the tests`);
  return (await import(pathToFileURL(entry).href)) as Module;
}

describe('the built package', () => {
  test('exports resolve to dist/index.js with type declarations beside it', () => {
    const require = createRequire(join(pkgDir, 'package.json'));
    const pkg = require('./package.json') as { exports: { '.': { types: string; import: string } } };
    expect(pkg.exports['.'].import).toBe('./dist/index.js');
    expect(existsSync(join(pkgDir, pkg.exports['.'].types))).toBe(true);
  });

  test('every function named in api.md is exported (or listed as pending)', async () => {
    const da = await load();
    if (!existsSync(apiMd)) {
      console.warn(`shared/api.md not found at ${apiMd}: checking the built-in list only`);
    }
    const text = existsSync(apiMd) ? readFileSync(apiMd, 'utf8') : '';
    const named = new Set([...text.matchAll(/\bda\.([a-zA-Z]+)/g)].map((m) => m[1]!));
    for (const n of [...ELEMENTWISE, ...REDUCTIONS, 'wrap', 'array', 'zeros', 'ones', 'full', 'empty', 'arange', 'linspace',
      'execute', 'configure', 'shutdown', 'broadcastTo', 'concat', 'stack', 'matmul', 'dot', 'outer']) named.add(n);
    const missing = [...named].filter((n) => !PENDING.has(n) && da[n] === undefined);
    expect(missing).toEqual([]);
  });

  test("api.md's compiled function runs on the built package", async () => {
    const da = (await load()) as unknown as typeof import('../packages/deferred-array/src/index.js');
    const n = da.size('n');
    const f = da.compile((x) => x.mul(2).sin().sum(), [da.placeholder([n], 'float64')]);
    const r = (await f(new Float64Array([0.25, 0.5]))) as { get(): number };
    expect(r.get()).toBeCloseTo(Math.sin(0.5) + Math.sin(1), 12);
    await da.shutdown();
  });

  test('every method of the contract exists on arrays, with the error classes exported', async () => {
    const da = await load();
    const x = (da['zeros'] as (s: number[]) => Record<string, unknown>)([2, 2]);
    const missing = [...ELEMENTWISE.filter((n) => n !== 'where'), ...REDUCTIONS, ...METHODS].filter((m) => typeof x[m] !== 'function');
    expect(missing).toEqual([]);
    for (const p of ['shape', 'dtype', 'ndim', 'size', 'T']) expect(x[p]).toBeDefined();
    for (const e of ['DeferredArrayError', 'ShapeError', 'DTypeError', 'StaleArrayError', 'HeapError', 'WorkerError', 'ExecutionError']) {
      expect(typeof da[e]).toBe('function');
    }
  });
});
