// The packed tables the kernels read (tables.packed.generated.ts, written by
// scripts/pack-tables.mjs) hold the readable tables' values
// (tables.generated.ts, from mpmath), bit for bit, row for row.
import * as packed from './tables.packed.generated.js';
import * as readable from './tables.generated.js';
import { unpackRows } from './unpack-rows.js';

const bits = (rows: ReadonlyArray<readonly number[]> | readonly number[]): string[] =>
  rows.flat().map((v) => new BigUint64Array(Float64Array.of(v).buffer)[0]!.toString(16));

test('every table, packed and readable, has the same rows and bits', () => {
  expect(Object.keys(packed).sort()).toEqual(Object.keys(readable).sort());
  for (const name of Object.keys(readable) as Array<keyof typeof readable>) {
    const [p, r] = [packed[name], readable[name]];
    expect(p.length).toBe(r.length);
    expect(bits(p)).toEqual(bits(r));
  }
});

test('unpackRows reads back zeros of both signs, subnormals, Infs and NaN, and refuses a wrong count or width', () => {
  const values = [0, -0, 5e-324, -Number.MIN_VALUE * 3, Infinity, -Infinity, NaN, 1, Math.PI, -2.5];
  const planes = new Uint8Array(8 * values.length);
  const view = new DataView(new ArrayBuffer(8));
  values.forEach((v, i) => {
    view.setFloat64(0, v, true);
    for (let k = 0; k < 8; k++) planes[k * values.length + i] = view.getUint8(k);
  });
  const text = btoa(String.fromCharCode(...planes));
  expect(bits(unpackRows(text, values.length, 2))).toEqual(bits(values));
  expect(unpackRows(text, values.length, 5)).toHaveLength(2);
  expect(() => unpackRows(text, values.length + 1, 1)).toThrow(/holds 80 bytes/);
  expect(() => unpackRows(text, values.length, 3)).toThrow(/in rows of 3/);
});
