#!/usr/bin/env node
// Part of `npm test`: the browser suite (test/browser/) needs a Chromium, never a
// downloaded one. Where /usr/bin/chromium (or CHROMIUM_PATH) is missing and apt-get is
// available as root, installs Debian's chromium; otherwise says loudly that the browser
// suite will be skipped, and why. Never fails the test run itself: the suite's own skip
// line says the same in the test summary.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

const path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const loud = (s) => console.log(`\n*** ${s} ***\n`);

if (existsSync(path)) process.exit(0);
if (process.env.CHROMIUM_PATH) {
  loud(`CHROMIUM_PATH is ${path}, which does not exist: the browser suite will be skipped`);
  process.exit(0);
}
const hasApt = spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;
const root = typeof process.getuid === 'function' && process.getuid() === 0;
if (!hasApt || !root) {
  loud(`No Chromium at ${path}, and ${hasApt ? 'not root, so apt-get cannot install it' : 'no apt-get to install it with'}: ` +
    'the browser suite will be skipped. Install Debian\'s chromium (apt-get install -y chromium) or set CHROMIUM_PATH');
  process.exit(0);
}
console.log(`No Chromium at ${path}: installing Debian's chromium for the browser suite (apt-get install -y chromium)...`);
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
const install = () => spawnSync('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], { stdio: ['ignore', 'ignore', 'inherit'], env }).status === 0;
// A fresh machine may not have read its package lists yet.
const ok = install() || (spawnSync('apt-get', ['update'], { stdio: ['ignore', 'ignore', 'inherit'], env }).status === 0 && install());
if (ok && existsSync(path)) console.log(`Installed ${path}.`);
else loud('apt-get could not install chromium: the browser suite will be skipped');
