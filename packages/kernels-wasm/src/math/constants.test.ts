// Every coefficient transcribed from fdlibm/FreeBSD is written as the
// published decimal with its IEEE bit pattern in a comment; they must agree,
// so a slip in either would show here.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('./', import.meta.url));
const PAIR = /(-?\d\.\d+(?:e[+-]\d+)?)[^/]*\/\/.*?0x([0-9A-Fa-f]{8})[ ,]+(?:0x)?([0-9A-Fa-f]{8})/;

function bitsOf(x: number): string {
  const v = new DataView(new ArrayBuffer(8));
  v.setFloat64(0, x);
  return v.getBigUint64(0).toString(16).padStart(16, '0').toUpperCase();
}

describe('transcribed constants', () => {
  test('each decimal matches the hex bit pattern beside it', () => {
    const mismatches: string[] = [];
    let checked = 0;
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))) {
      readFileSync(`${dir}${file}`, 'utf8').split('\n').forEach((line, i) => {
        const m = PAIR.exec(line);
        if (!m) return;
        checked++;
        const want = `${m[2]}${m[3]}`.toUpperCase();
        if (bitsOf(Number(m[1])) !== want) mismatches.push(`${file}:${i + 1}: ${m[1]} is 0x${bitsOf(Number(m[1]))}, comment says 0x${want}`);
      });
    }
    expect(mismatches).toEqual([]);
    expect(checked).toBeGreaterThan(80);
  });
});
