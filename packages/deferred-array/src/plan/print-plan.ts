// The plan printer behind explain(): each step (a node alone, or a kernel and
// the nodes it fuses), when values are released, and the bytes the plan moves
// against an eager evaluation that makes one array per op.
import { dtypeInfo } from '../ir/dtypes.js';
import { OPS } from '../ir/op-table.js';
import { nameNodes, nodeLine } from '../ir/print-graph.js';
import type { Node } from '../ir/node.js';
import { formatShape, sizeOf } from '../ir/shape.js';
import { groupNodes, producedBy, windowBase } from './plan.js';
import type { Buffer, Plan, Step } from './plan.js';

const bytesOf = (n: Node): number => sizeOf(n.shape) * dtypeInfo(n.dtype).bytes;

/** Nodes that cost no pass over memory: leaves and views (strided windows). */
const isFree = (n: Node): boolean => ['source', 'scalar', 'view', 'reshape'].includes(OPS[n.op].family);

function formatBytes(b: number): string {
  if (b < 1024) return `${b} B`;
  if (b < 1024 ** 2) return `${(b / 1024).toFixed(1)} KiB`;
  if (b < 1024 ** 3) return `${(b / 1024 ** 2).toFixed(1)} MiB`;
  return `${(b / 1024 ** 3).toFixed(2)} GiB`;
}

/** Bytes a step reads and writes. */
function stepTraffic(s: Step): number {
  if (s.kind === 'kernel') {
    return s.group.inputs.reduce((t, i) => t + bytesOf(i), 0) + s.group.stores.reduce((t, n) => t + bytesOf(n), 0);
  }
  return isFree(s.node) ? 0 : s.node.inputs.reduce((t, i) => t + bytesOf(i), 0) + bytesOf(s.node);
}

/**
 * Bytes the plan's steps read and write, each array a kernel reads counted
 * once however many windows it reads it through (a 5-point stencil reads its
 * array once, the neighbours coming from cache).
 */
function planTraffic(plan: Plan): number {
  return plan.steps.reduce((t, s) => {
    if (s.kind === 'node') return t + stepTraffic(s);
    const read = new Set(s.group.inputs.map(windowBase));
    return t + [...read].reduce((u, n) => u + bytesOf(n), 0) + s.group.stores.reduce((u, n) => u + bytesOf(n), 0);
  }, 0);
}

/** What the same nodes would move evaluated eagerly, each op reading its inputs and writing a new array. */
function eagerTraffic(plan: Plan): number {
  return plan.steps.flatMap(producedBy).filter((n) => !isFree(n))
    .reduce((t, n) => t + n.inputs.reduce((u, i) => u + bytesOf(i), 0) + bytesOf(n), 0);
}

function printPlan(plan: Plan, backend: string): string {
  const names = nameNodes([...plan.steps.flatMap(producedBy), ...[...plan.temps.values()].flatMap((t) => t.members)]);
  const kernels = plan.steps.filter((s) => s.kind === 'kernel').length;
  const computing = plan.steps.filter((s) => s.kind === 'kernel' || !isFree(s.node)).length;
  const lines = [
    `plan on backend '${backend}': ${computing} step(s) computing (${kernels} fused kernel(s)), ` +
    `${plan.results.length} result(s), ${plan.outputs.length} marked output(s)`,
  ];
  const name = (n: Node): string => names.get(n) ?? '?';
  const pinNote = (n: Node): string => {
    const note = plan.pinNotes.get(n);
    if (note) return `   [pin not applied: ${note}; planned as if unpinned]`;
    return plan.pins.get(n) === 'pinCse' ? '   [pinCse: own kernel, own array]' : '';
  };
  for (const step of plan.steps) {
    const free = step.release.length ? `   (then release ${step.release.map(name).join(', ')})` : '';
    if (step.kind === 'node') {
      lines.push(`  ${nodeLine(step.node, names)}${free}${pinNote(step.node)}`);
      continue;
    }
    const g = step.group;
    const fused = groupNodes(g).map((n) => n.op).join(', ');
    lines.push(`  kernel ${g.id} over ${formatShape(g.shape)}: ${fused}; reads ${g.inputs.map(name).join(', ') || 'nothing'}; ` +
      `writes ${g.stores.map(name).join(', ') || 'nothing'}${g.reductions.length ? `; reduces to ${g.reductions.map(name).join(', ')}` : ''}${free}`);
    for (const t of g.temps ?? []) {
      lines.push(`    pin ${name(t.node)}: per-block temporary, ${t.node.dtype}${formatShape(t.node.shape)} computed per block from ` +
        `${t.inputs.map(name).join(', ') || 'nothing'}`);
      for (const n of t.members) lines.push(`      ${nodeLine(n, names)}`);
    }
    for (const n of groupNodes(g)) lines.push(`    ${nodeLine(n, names)}${pinNote(n)}`);
  }
  for (const o of plan.outputs) lines.push(`  output ${o.key} = ${name(o.node)}`);
  lines.push(`  result = ${plan.results.map(name).join(', ')}`);
  lines.push(...printBuffers(plan, name));
  const moved = plan.steps.reduce((t, s) => t + stepTraffic(s), 0);
  lines.push(`  memory traffic: ${formatBytes(moved)} (eager, one array per op: ${formatBytes(eagerTraffic(plan))})`);
  return lines.join('\n');
}

/** Each buffer: its size, whether the caller receives it, and the values (and their steps) that take turns in it. */
function printBuffers(plan: Plan, name: (n: Node) => string): string[] {
  if (plan.buffers.length === 0) return [];
  const stepName = new Map<Node, string>();
  for (const s of plan.steps) {
    if (s.kind === 'kernel') for (const n of [...s.group.stores, ...s.group.reductions]) stepName.set(n, `kernel ${s.group.id}`);
  }
  const temporaries = plan.buffers.filter((b) => b.kind === 'temporary');
  const results = plan.buffers.filter((b) => b.kind === 'result');
  const bytes = (bs: readonly Buffer[]): string => formatBytes(bs.reduce((t, b) => t + b.bytes, 0));
  const lines = [`  buffers: ${results.length} result(s) ${bytes(results)}, ${temporaries.length} temporary ${bytes(temporaries)} ` +
    `for ${temporaries.reduce((t, b) => t + b.values.length, 0)} temporary value(s)`];
  for (const b of plan.buffers) {
    const held = b.values.map((n) => `${name(n)}${stepName.has(n) ? ` (${stepName.get(n)})` : ''}`).join(', then ');
    lines.push(`    buffer ${b.id}: ${formatBytes(b.bytes)} ${b.kind}, holds ${held}`);
  }
  return lines;
}

export { printPlan, formatBytes, planTraffic };
