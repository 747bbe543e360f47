// What `npm run bench` leaves behind, all from one BenchResult: the JSON of
// every measurement, a markdown report, SVG plots, and the generated section of
// docs/performance.md.
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { linkFromPage, writeSection } from '../generated-section.js';
import { markdown } from './markdown.js';
import { plots } from './plots.js';
import type { BenchResult } from './result-types.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const resultsDir = join(root, 'benchmarks', 'results');

/** Writes everything under benchmarks/results/ and the section of docs/performance.md; returns the paths written. */
async function writeOutputs(r: BenchResult): Promise<string[]> {
  mkdirSync(resultsDir, { recursive: true });
  const written: string[] = [];
  const put = (path: string, text: string): void => {
    writeFileSync(path, text);
    written.push(relative(root, path));
  };
  // Plots of an earlier run's cases must not outlive it (other benchmarks' plots stay).
  for (const f of readdirSync(resultsDir)) if (/^(gbps-.*|speedup|scaling)\.svg$/.test(f)) rmSync(join(resultsDir, f));
  put(join(resultsDir, 'bench.json'), `${JSON.stringify(r, null, 1)}\n`);
  for (const [name, svg] of await plots(r)) put(join(resultsDir, name), svg);
  put(join(resultsDir, 'bench.md'), markdown(r, '').full);
  const source = 'npm run bench from benchmarks/results/bench.json; edit benchmarks/src/peers/markdown.ts instead';
  written.push(writeSection('bench', source, markdown(r, `${linkFromPage('benchmarks/results')}/`).section));
  return written;
}

/** Regenerates the outputs from the committed JSON (after changing how they are drawn): node benchmarks/dist/peers/outputs.js */
if (import.meta.url === `file://${process.argv[1]}`) {
  const r = JSON.parse(readFileSync(join(resultsDir, 'bench.json'), 'utf8')) as BenchResult;
  console.log(`Wrote ${(await writeOutputs(r)).join(', ')}`);
}

export { writeOutputs };
