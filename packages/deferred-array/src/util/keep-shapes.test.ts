// Code that builds a graph per call and keeps nothing stays optimized through
// a full collection: the shapes of handles, nodes, results and lean runs are
// kept alive (keep-shapes.ts). Without them V8 dropped those shapes at the
// collection and threw the optimized code away. Checked in a process of its
// own, which may use V8's natives to force and read the optimization.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@jest/globals';

/** V8's optimization status bit for optimized code (src/runtime/runtime.h, OptimizationStatus::kOptimized). */
const OPTIMIZED = 1 << 4;

// Nodes are frozen where tests run and not elsewhere (ir/node.ts), which gives them other shapes: both ways.
test.each(['production', 'test'])('a function that builds, executes and drops a graph per call is still optimized after a full collection (NODE_ENV=%s)', (mode) => {
  const script = fileURLToPath(new URL('../../test/fixtures/optimized-after-gc.mjs', import.meta.url));
  const env = { ...process.env, NODE_ENV: mode };
  const r = spawnSync(process.execPath, ['--expose-gc', '--allow-natives-syntax', '--no-warnings', script], { timeout: 60000, encoding: 'utf8', env });
  expect(r.stderr).toBe('');
  const { before, after } = JSON.parse(r.stdout) as { before: number; after: number };
  expect(before & OPTIMIZED).toBe(OPTIMIZED);
  expect(after & OPTIMIZED).toBe(OPTIMIZED);
});
