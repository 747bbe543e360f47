#!/usr/bin/env node
// Writes packages/kernels-wasm/dist/op-table.json: the elementwise op table
// (kernels-wasm src/ops/elementwise-ops.ts) as data, for what cannot import
// TypeScript: the NumPy scripts (scripts/numpy/) and the ufunc export list
// (scripts/gen-ufunc-exports.mjs). kernels-wasm's build runs it after tsc.
//   node scripts/op-table-json.mjs
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const DIST = fileURLToPath(new URL('../packages/kernels-wasm/dist/', import.meta.url));
const { ELEMENTWISE_OPS } = await import(`${DIST}ops/index.js`);

const table = {
  generator: 'scripts/op-table-json.mjs, from packages/kernels-wasm/src/ops/elementwise-ops.ts',
  ops: ELEMENTWISE_OPS,
};
writeFileSync(`${DIST}op-table.json`, `${JSON.stringify(table, null, 1)}\n`);
