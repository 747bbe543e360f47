// The function forms come from the op table: every unary and binary op and alias is exported
// as da.<name>, and the generated export list (ufuncs.generated.ts) is current.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from '@jest/globals';
import * as da from '../index.js';
import { BINARY_OPS, OPS, UNARY_OPS } from '../ir/op-table.js';

const values = (x: unknown): number[] => Array.from((x as da.StdNdarray).data as Float64Array);

describe('function forms from the op table', () => {
  test('ufuncs.generated.ts is what scripts/gen-ufunc-exports.mjs writes from the table', () => {
    const script = fileURLToPath(new URL('../../../../scripts/gen-ufunc-exports.mjs', import.meta.url));
    const r = spawnSync(process.execPath, [script, '--check'], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  test('every unary and binary op and alias is a function of the package, the alias the same op', () => {
    const x = da.wrap(new Float64Array([0.25, 0.5, 2]));
    const y = da.wrap(new Float64Array([3, -1, 0.5]));
    // Bitwise ops, shifts and gcd take integers only.
    const i = da.wrap(new Int32Array([1, 6, -12]));
    const j = da.wrap(new Int32Array([3, 1, 2]));
    const pkg = da as unknown as Record<string, (...a: unknown[]) => da.DeferredArray>;
    for (const op of [...UNARY_OPS, ...BINARY_OPS]) {
      const bits = ['bitwise', 'shift', 'integer'].includes(OPS[op].rule);
      const [a, b] = bits ? [i, j] : [x, y];
      const args = OPS[op].family === 'unary' ? [a] : [a, b];
      const want = values(pkg[op]!(...args).executeSync());
      for (const name of OPS[op].aliases) {
        expect(typeof pkg[name]).toBe('function');
        expect(values(pkg[name]!(...args).executeSync())).toEqual(want);
      }
    }
  });
});
