#!/usr/bin/env node
// Runs the pnpm version pinned in package.json's `packageManager` through npx,
// so a machine with only Node and npm needs no global install or corepack.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { packageManager } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
if (typeof packageManager !== 'string' || !packageManager.startsWith('pnpm@')) {
  console.error(`package.json must pin pnpm in "packageManager" (found ${JSON.stringify(packageManager)})`);
  process.exit(1);
}
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
const result = spawnSync(npx, ['--yes', packageManager, ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, npm_config_update_notifier: 'false' },
});
if (result.error) {
  console.error(`could not start ${packageManager} through npx: ${result.error.message}`);
  process.exit(1);
}
process.exit(result.status ?? 1);
