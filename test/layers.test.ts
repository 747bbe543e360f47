// The layering of deferred-array's sources, read from their import lines:
// only wasm/ knows kernels-wasm (the core and the linker know no backend),
// nothing below api/ reaches up into it, and no module imports itself
// through a circle (type-only imports included).
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from '@jest/globals';

const src = resolve(dirname(fileURLToPath(import.meta.url)), '../packages/deferred-array/src');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [p] : [];
  });
}

/** Each source (relative to src/) and what it imports: package names as written, relative modules as src/ paths. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sources(src)) {
    const text = readFileSync(file, 'utf8');
    const specs = [...text.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s+['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]/gm)].map((m) => m[1] ?? m[2] ?? '');
    graph.set(relative(src, file), specs.map((s) => (s.startsWith('.') ? relative(src, resolve(dirname(file), s)).replace(/\.js$/, '.ts') : s)));
  }
  return graph;
}

const graph = importGraph();
const top = (path: string): string => path.split('/')[0] ?? path;

describe('layers of deferred-array/src', () => {
  test('the graph was read: there are sources, and imports of both kinds', () => {
    expect(graph.size).toBeGreaterThan(50);
    expect(graph.get('wasm/backend.ts')).toContain('kernels-wasm');
    expect(graph.get('index.ts')).toContain('api/deferred-array.ts');
  });

  test('only wasm/ imports kernels-wasm', () => {
    const outside = [...graph].filter(([file, deps]) => top(file) !== 'wasm' && deps.includes('kernels-wasm')).map(([file]) => file);
    expect(outside).toEqual([]);
  });

  test("outside wasm/, kernels-wasm's subpaths are only its data and utilities with no imports: ops and lru", () => {
    const subpaths = [...graph].flatMap(([file, deps]) =>
      (top(file) === 'wasm' ? [] : deps.filter((d) => d.startsWith('kernels-wasm/') && d !== 'kernels-wasm/ops' && d !== 'kernels-wasm/lru').map((d) => `${file} -> ${d}`)));
    expect(subpaths).toEqual([]);
    expect([...graph].some(([, deps]) => deps.includes('kernels-wasm/lru'))).toBe(true);
  });

  test('nothing outside api/ and index.ts imports api/', () => {
    const upward = [...graph].flatMap(([file, deps]) =>
      (top(file) === 'api' || file === 'index.ts' ? [] : deps.filter((d) => top(d) === 'api').map((d) => `${file} -> ${d}`)));
    expect(upward).toEqual([]);
  });

  test('the linker and the core know no backend: execute/ and core/ import neither wasm/ nor reference/', () => {
    const reach = [...graph].flatMap(([file, deps]) =>
      (['execute', 'core'].includes(top(file)) ? deps.filter((d) => ['wasm', 'reference'].includes(top(d))).map((d) => `${file} -> ${d}`) : []));
    expect(reach).toEqual([]);
  });

  test('no import circles', () => {
    const circles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (file: string, path: string[]): void => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'open') {
        circles.push([...path.slice(path.indexOf(file)), file].join(' -> '));
        return;
      }
      state.set(file, 'open');
      for (const d of graph.get(file) ?? []) if (graph.has(d)) visit(d, [...path, file]);
      state.set(file, 'done');
    };
    for (const file of graph.keys()) visit(file, []);
    expect(circles).toEqual([]);
  });
});
