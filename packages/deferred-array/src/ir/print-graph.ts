// Printers for the graph: text (String(x), util.inspect) and Graphviz (toDot).
// Both read only shapes, dtypes and attributes; neither evaluates anything.
import { markOf } from './marks.js';
import { topoOrder } from './node.js';
import type { Node } from './node.js';
import { formatShape } from './shape.js';

/** Local names %0, %1, ... in topological order, stable for a given graph. */
function nameNodes(order: readonly Node[]): Map<Node, string> {
  return new Map(order.map((n, i) => [n, `%${i}`]));
}

/** The parameters a printed node shows besides its label: a scalar's value, a reduction's axes. */
function attrParts(node: Node): string[] {
  switch (node.family) {
    case 'scalar': return [String(node.attrs.value)];
    case 'reduce': return [`axes=[${node.attrs.axes.join(',')}]`, ...(node.attrs.keepdims ? ['keepdims'] : [])];
    default: return [];
  }
}

function describeAttrs(node: Node): string {
  const { label } = node.attrs;
  const parts = label === undefined ? attrParts(node) : [...attrParts(node), label];
  return parts.length ? ` {${parts.join(' ')}}` : '';
}

function describeMark(node: Node): string {
  const m = markOf(node);
  if (!m) return '';
  return m.name === undefined ? '  <- output()' : `  <- output('${m.name}')`;
}

function nodeLine(node: Node, names: ReadonlyMap<Node, string>): string {
  const args = node.inputs.map((n) => names.get(n)).join(', ');
  const call = node.inputs.length ? `${node.op}(${args})` : node.op;
  return `${names.get(node)} = ${call}${describeAttrs(node)} : ${node.dtype}${formatShape(node.shape)}${describeMark(node)}`;
}

/** The text form of a graph: one line per node, inputs first. */
function printGraph(root: Node): string {
  const order = topoOrder([root]);
  const names = nameNodes(order);
  const head = `DeferredArray ${root.dtype}${formatShape(root.shape)}, not executed (${order.length} node${order.length === 1 ? '' : 's'})`;
  return [head, ...order.map((n) => `  ${nodeLine(n, names)}`)].join('\n');
}

/** Graphviz dot; `clusters` draws groups of nodes (kernels) as boxes, `temporaries` dashed (pin()ned values). */
function printDot(roots: readonly Node[], clusters?: ReadonlyArray<{ label: string; nodes: readonly Node[] }>,
  temporaries: ReadonlySet<Node> = new Set()): string {
  const order = topoOrder(roots);
  const names = new Map(order.map((n, i) => [n, `n${i}`]));
  const esc = (s: string): string => s.replace(/["\\]/g, '\\$&');
  const nodeDecl = (n: Node): string => {
    const m = markOf(n);
    const parts = [`${n.op}${describeAttrs(n)}`, `${n.dtype}${formatShape(n.shape)}`];
    if (m) parts.push(m.name === undefined ? 'output()' : `output('${m.name}')`);
    if (temporaries.has(n)) parts.push('pin(): per-block temporary');
    const style = m ? ', peripheries=2' : roots.includes(n) ? ', style=bold' : temporaries.has(n) ? ', style=dashed' : '';
    const shape = n.inputs.length === 0 ? 'box' : 'ellipse';
    return `${names.get(n)} [label="${parts.map(esc).join('\\n')}", shape=${shape}${style}];`;
  };
  const lines = ['digraph deferred {', '  rankdir=BT;', '  node [fontname="Helvetica", fontsize=10];'];
  const clustered = new Set<Node>();
  clusters?.forEach((c, i) => {
    lines.push(`  subgraph cluster_${i} {`, `    label="${esc(c.label)}";`);
    for (const n of c.nodes) {
      clustered.add(n);
      lines.push(`    ${nodeDecl(n)}`);
    }
    lines.push('  }');
  });
  for (const n of order) if (!clustered.has(n)) lines.push(`  ${nodeDecl(n)}`);
  for (const n of order) for (const i of n.inputs) lines.push(`  ${names.get(i)} -> ${names.get(n)};`);
  lines.push('}');
  return lines.join('\n');
}

export { printGraph, printDot, nodeLine, nameNodes };
