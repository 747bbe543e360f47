// The browser build's stdlib-pieces.ts: the pieces bundled in (dist/stdlib-pieces.browser.cjs,
// one CommonJS file, which the bundler wraps).
import pieces from '../stdlib-pieces.browser.cjs';

function loadPieces(): unknown {
  return pieces;
}

export { loadPieces };
