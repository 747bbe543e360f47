// mergeCommon: structurally equal nodes become one (common-subexpression
// elimination), so `sin(x) + sin(x)` computes sin once and a graph built twice
// runs once. Two nodes are equal when their ops, dtypes, shapes and
// parameters are and their inputs are the same nodes after merging. Sources
// and stored versions are equal only to themselves: their identity is their data.
import type { Node, NodeAttrs } from '../ir/node.js';
import type { Plan } from './plan.js';
import type { Scalar } from '../ir/dtypes.js';
import { rewriteGraph, withInputs } from './rewrite.js';

/** A number's key: -0 and 0 differ (1/x tells them apart), every NaN is one. */
const numberKey = (v: Scalar): string => (Object.is(v, -0) ? '-0' : String(v));

/** A number as a Map key with -0 apart from 0 (Map keys are equal by SameValueZero, which joins them; every NaN is one key). */
const valueKey = (v: Scalar): Scalar | string => (Object.is(v, -0) ? '-0' : v);

/**
 * Attributes a key leaves out: labels (only for printers), what a slice or
 * reshape was asked as (its view or shape holds what it computes), and the
 * leaves' own (a leaf is equal only to itself; iota's length is its shape).
 */
const UNKEYED = new Set(['label', 'index', 'request', 'window', 'data', 'lease', 'storage', 'version', 'random', 'of']);
const KEYED = new Set(['value', 'axes', 'keepdims', 'axis', 'mode', 'side', 'view', 'upper', 'full', 'uv', 'vectors', 'positions', 'kth']);

/** The parameters that change what a node computes. */
function attrsKey(a: NodeAttrs): string {
  for (const k of Object.keys(a)) {
    // An attribute no key holds would make two different nodes equal (and share a plan): refuse it loudly.
    if (!KEYED.has(k) && !UNKEYED.has(k)) throw new Error(`internal: attrsKey does not know the attribute '${k}'; key it (plan/merge-common.ts)`);
  }
  const parts: string[] = [];
  if ('value' in a) parts.push(`v${numberKey(a.value)}`);
  if ('axes' in a) parts.push(`a${a.axes.join(',')}`);
  if ('keepdims' in a) parts.push(`k${a.keepdims ? 1 : 0}`);
  if ('axis' in a) parts.push(`x${a.axis}`);
  if ('mode' in a) parts.push(`m${a.mode}`);
  if ('side' in a) parts.push(`s${a.side}`);
  if ('upper' in a) parts.push(`u${a.upper ? 1 : 0}`);
  if ('full' in a) parts.push(`f${a.full ? 1 : 0}`);
  if ('uv' in a) parts.push(`v${a.uv ? 1 : 0}`);
  if ('vectors' in a) parts.push(`e${a.vectors ? 1 : 0}`);
  if ('view' in a) parts.push(`w${JSON.stringify(a.view)}`);
  if ('positions' in a) parts.push(`p${a.positions.join(',')}`);
  if ('kth' in a) parts.push(`t${a.kth.join(',')}`);
  return parts.join('|');
}

function mergeCommon(plan: Plan): Plan {
  const byKey = new Map<string, Node>();
  return rewriteGraph(plan, (n, inputs) => {
    if (n.family === 'source') return n;
    const key = `${n.op}|${n.dtype}|${n.shape.join(',')}|${attrsKey(n.attrs)}|${inputs.map((i) => i.id).join(',')}`;
    const hit = byKey.get(key);
    if (hit) return hit;
    const m = withInputs(n, inputs);
    byKey.set(key, m);
    return m;
  });
}

export { mergeCommon, attrsKey, numberKey, valueKey };
