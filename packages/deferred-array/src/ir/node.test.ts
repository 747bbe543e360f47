import { copyNode, expectOp, isFamily, makeNode, viewOf } from './node.js';
import type { Node } from './node.js';
import { source, scalar, elementwise } from './build-elementwise.js';
import { reduce } from './build-reduce.js';
import { transpose, reshape } from './build-view.js';
import { InternalError } from '../util/lookup.js';

const x = source(new Float64Array(6), [2, 3], 'float64');

/** What a switch over families reads: each branch sees only its family's attributes. */
function summary(n: Node): string {
  switch (n.family) {
    case 'scalar': return `value ${n.attrs.value}`;
    case 'reduce': return `axes ${n.attrs.axes.join(',')}${n.attrs.keepdims ? ' keepdims' : ''}`;
    case 'view': return n.op === 'transpose' ? `perm ${n.attrs.axes.join(',')}` : `view ${n.attrs.view.offset}`;
    case 'reshape': return `request ${n.attrs.request.join(',')}`;
    default: return n.op;
  }
}

describe('typed graph nodes', () => {
  test('a node carries its op\'s family, and a switch on it reads that family\'s attributes', () => {
    expect(x.family).toBe('source');
    expect(summary(scalar(2.5, 'float64'))).toBe('value 2.5');
    expect(summary(reduce('sum', x, { axis: 1, keepdims: true }))).toBe('axes 1 keepdims');
    expect(summary(transpose(x))).toBe('perm 1,0');
    expect(summary(reshape(x, [3, -1]))).toBe('request 3,-1');
    expect(summary(elementwise('sin', [x]))).toBe('sin');
  });

  test('nodes stay frozen where tests run, attributes included', () => {
    expect(process.env['NODE_ENV']).toBe('test');
    const r = reduce('max', x);
    expect(Object.isFrozen(r)).toBe(true);
    expect(Object.isFrozen(r.attrs)).toBe(true);
    expect(Object.isFrozen(r.inputs)).toBe(true);
  });

  test('isFamily and viewOf narrow without a cast', () => {
    const t = transpose(x);
    expect(isFamily(t, 'view') && t.attrs.view.strides).toEqual([1, 3]);
    expect(isFamily(x, 'view')).toBe(false);
    expect(viewOf(t)?.axes).toEqual([1, 0]);
    expect(viewOf(reshape(x, [6]))).toBeUndefined();
  });

  test('copyNode keeps the op, shape and attributes over new inputs, and refuses another arity', () => {
    const y = source(new Float64Array(6), [2, 3], 'float64');
    const r = reduce('sum', x, { axis: 0 });
    const c = copyNode(r, [y]);
    expect([c.op, c.family, c.shape, c.attrs, c.inputs[0]]).toEqual([r.op, r.family, r.shape, r.attrs, y]);
    expect(c.id).not.toBe(r.id);
    expect(Object.isFrozen(c)).toBe(true);
    expect(() => copyNode(r, [x, y])).toThrow(InternalError);
    expect(() => copyNode(r, [x, y])).toThrow(/internal: sum copied over 2 inputs instead of 1/);
  });

  test('expectOp returns the node as its op, or names what it got', () => {
    const s = scalar(3, 'int32');
    expect(expectOp(s, 'scalar').attrs.value).toBe(3);
    expect(() => expectOp(s, 'source')).toThrow(/internal: expected a source node, got scalar/);
  });

  test('makeNode asks for the attributes an op has, by type', () => {
    // @ts-expect-error a reduction needs its axes and keepdims
    const bare = (): Node => makeNode('sum', [x], [], 'float64');
    // @ts-expect-error a scalar's attribute is its value, not axes
    const wrong = (): Node => makeNode('scalar', [], [], 'float64', { axes: [0] });
    // @ts-expect-error a cast has one input
    const twoInputs = (): Node => makeNode('astype', [x, x], [2, 3], 'float32', { label: 'float32' });
    expect([bare, wrong, twoInputs].every((f) => typeof f === 'function')).toBe(true);
    expect(makeNode('matmul', [x, x], [2, 2], 'float64').attrs).toEqual({});
  });
});
