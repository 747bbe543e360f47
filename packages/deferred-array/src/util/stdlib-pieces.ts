// Loads stdlib-pieces.cjs on first use, in Node through createRequire (the
// browser build's stdlib-pieces.browser.ts imports it into the bundle).
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { packageRoot } from '../package-root.js';

const require = createRequire(import.meta.url);

function loadPieces(): unknown {
  return require(fileURLToPath(new URL('./stdlib-pieces.cjs', packageRoot)));
}

export { loadPieces };
