// What the package costs a process: resident memory through a burst and
// after it (footprint-child.ts, in a fresh process so that resident memory
// is the package's alone), against the targets: within 150 MiB of the
// figure before the burst after 10 s idle, within 100 MiB after shutdown().
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

interface Point { readonly rss: number; readonly heap: number }

interface Footprint {
  readonly source: Point;
  readonly afterBurst: Point;
  readonly afterIdle: Point;
  readonly afterShutdown: Point;
  readonly trims: number;
  readonly same: boolean;
  readonly beforeTrimMs: number;
  readonly afterTrimMs: number;
}

function footprintReport(): Footprint {
  const script = fileURLToPath(new URL('./footprint-child.js', import.meta.url));
  const r = spawnSync(process.execPath, ['--expose-gc', script], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`footprint-child failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as Footprint;
}

function printFootprint(f: Footprint): string {
  const line = (name: string, p: Point, bar?: number): string => {
    const over = p.rss - f.source.rss;
    const target = bar === undefined ? '' : `  (target: within ${bar} MiB: ${over <= bar ? 'met' : 'NOT MET'})`;
    return `  ${name.padEnd(40)} ${p.rss.toFixed(0).padStart(6)} MiB resident (+${over.toFixed(0)}), heap ${p.heap.toFixed(0)} MiB${target}`;
  };
  return [
    'Footprint: 10^7 float64 wrapped, six execute() of it at once, results dropped (one fresh process; full collections before each reading but the idle one):',
    line('with the wrapped source', f.source),
    line('after the burst', f.afterBurst),
    line('after 10 s idle (default settings)', f.afterIdle, 150),
    line('after shutdown()', f.afterShutdown, 100),
    `  heap trims while idle: ${f.trims}; the next execute() after the trim: ${f.afterTrimMs.toFixed(0)} ms (the same run before it: ${f.beforeTrimMs.toFixed(0)} ms), ${f.same ? 'same bits' : 'DIFFERENT BITS'}`,
  ].join('\n');
}

export { footprintReport, printFootprint };
export type { Footprint };
