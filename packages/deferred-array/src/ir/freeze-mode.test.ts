// Nodes are frozen where tests run and not elsewhere (FREEZE_NODES in
// node.ts): the same graphs give the same bits both ways. Each way in a
// process of its own, since the mode is read once, when the package loads.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@jest/globals';

const run = (mode: string): string[] => {
  const script = fileURLToPath(new URL('../../test/fixtures/graphs-by-mode.mjs', import.meta.url));
  const env = { ...process.env, NODE_ENV: mode };
  const r = spawnSync(process.execPath, ['--no-warnings', script], { timeout: 60000, encoding: 'utf8', env });
  expect(r.stderr).toBe('');
  return (JSON.parse(r.stdout) as { out: string[] }).out;
};

test('graphs give the same bits with nodes frozen (NODE_ENV=test) and not (NODE_ENV=production)', () => {
  const frozen = run('test');
  const plain = run('production');
  expect(frozen.length).toBe(49);
  expect(plain).toEqual(frozen);
});
