// Runs cases side by side and prints one readable table per case.
import * as da from 'deferred-array';
import type { Case } from './cases.js';
import { gbPerS, time } from './timing.js';

interface Row {
  readonly who: string;
  readonly ms: number;
}

function runCase(c: Case, runs: number): Row[] {
  return [
    { who: `deferred-array (${da.configure().backend} backend)`, ms: time(c.deferred, runs).medianMs },
    { who: 'eager @stdlib/ndarray', ms: time(c.eager, runs).medianMs },
    { who: 'hand-fused JS loop', ms: time(c.fusedJs, runs).medianMs },
  ];
}

function printCase(c: Case, rows: readonly Row[], readLimit: number): string {
  const ours = rows[0]!.ms;
  const lines = [`${c.name}  (one fused pass moves ${(c.bytes / 1e6).toFixed(0)} MB)`];
  for (const r of rows) {
    const gb = gbPerS(c.bytes, r.ms);
    lines.push(
      `  ${r.who.padEnd(36)} ${r.ms.toFixed(1).padStart(9)} ms  ${gb.toFixed(2).padStart(6)} GB/s  ` +
      `${((gb / readLimit) * 100).toFixed(1).padStart(5)}% of read limit  ${(r.ms / ours).toFixed(2).padStart(6)}x our time`,
    );
  }
  return lines.join('\n');
}

export { runCase, printCase };
