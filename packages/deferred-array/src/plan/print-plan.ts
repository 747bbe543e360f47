// The plan printer behind explain(): each step, what it reads and writes,
// when values are released, and the bytes the plan moves.
import { dtypeInfo } from '../ir/dtypes.js';
import { nameNodes, nodeLine } from '../ir/print-graph.js';
import type { Node } from '../ir/node.js';
import { sizeOf } from '../ir/shape.js';
import type { Plan } from './plan.js';

const bytesOf = (n: Node): number => sizeOf(n.shape) * dtypeInfo(n.dtype).bytes;

function formatBytes(b: number): string {
  if (b < 1024) return `${b} B`;
  if (b < 1024 ** 2) return `${(b / 1024).toFixed(1)} KiB`;
  if (b < 1024 ** 3) return `${(b / 1024 ** 2).toFixed(1)} MiB`;
  return `${(b / 1024 ** 3).toFixed(2)} GiB`;
}

/** Bytes each step reads and writes, the way an unfused eager evaluation moves them. */
function trafficOf(plan: Plan): { read: number; written: number; peak: number } {
  let read = 0;
  let written = 0;
  let live = 0;
  let peak = 0;
  for (const step of plan.steps) {
    const n = step.node;
    if (n.op === 'source') continue;
    read += n.inputs.reduce((s, i) => s + bytesOf(i), 0);
    written += bytesOf(n);
    live += bytesOf(n);
    peak = Math.max(peak, live);
    for (const r of step.release) if (r.op !== 'source') live -= bytesOf(r);
  }
  return { read, written, peak };
}

function printPlan(plan: Plan, backend: string): string {
  const names = nameNodes(plan.steps.map((s) => s.node));
  const computed = plan.steps.filter((s) => s.node.op !== 'source' && s.node.op !== 'scalar');
  const t = trafficOf(plan);
  const lines = [
    `plan on backend '${backend}': ${computed.length} step(s) computing, ${plan.results.length} result(s), ${plan.outputs.length} marked output(s)`,
  ];
  for (const step of plan.steps) {
    const free = step.release.length ? `   (then release ${step.release.map((n) => names.get(n)).join(', ')})` : '';
    lines.push(`  ${nodeLine(step.node, names)}${free}`);
  }
  for (const o of plan.outputs) lines.push(`  output ${o.key} = ${names.get(o.node)}`);
  lines.push(`  result = ${plan.results.map((n) => names.get(n)).join(', ')}`);
  lines.push(`  memory traffic: ${formatBytes(t.read)} read, ${formatBytes(t.written)} written; peak temporaries ${formatBytes(t.peak)}`);
  lines.push('  (each step is one pass over memory: fusion arrives with the WebAssembly backend)');
  return lines.join('\n');
}

export { printPlan, formatBytes };
