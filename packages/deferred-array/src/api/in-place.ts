// PyOP2's mutable arrays: assign, iadd, isub, imul, idiv and set enqueue a
// computation in the execution trace (trace/) and move the array to the
// version it will produce. Nothing runs until something forces it.
import { DTypeError, NotSupportedError, ShapeError } from '../ir/errors.js';
import { readsMapped } from '../ir/mapped.js';
import { dtypeInfo } from '../ir/dtypes.js';
import { canCastSafely } from '../ir/promotion.js';
import type { DType } from '../ir/dtypes.js';
import { cast, elementwise, scalar } from '../ir/build-elementwise.js';
import { castValue } from '../ir/cast-value.js';
import { broadcastTo, reshape, slice } from '../ir/build-view.js';
import type { IndexArg } from '../ir/indexing.js';
import { checkNotTracing } from '../ir/symbols.js';
import { expectOp, viewOf } from '../ir/node.js';
import type { Node } from '../ir/node.js';
import type { BinaryOp } from '../ir/op-table.js';
import { broadcastShapes, formatShape, sameShape } from '../ir/shape.js';
import { copyViews } from '../results/in-place.js';
import { defaultLinker } from './default-linker.js';
import { checkReadable, enqueue, readsOf } from '../trace/trace.js';
import type { InPlaceOp } from '../trace/trace.js';
import { isWhole, viewWindow } from '../trace/window.js';
import { DeferredArray, liveOf, nodeOf, wrapNode } from './deferred-array.js';
import { checkScalarFits, describe } from './operand.js';
import { anyNode, operandNodes } from './ufunc.js';
import type { Operand } from './ufunc.js';

const UFUNC: Record<'iadd' | 'isub' | 'imul' | 'idiv', BinaryOp> = { iadd: 'add', isub: 'subtract', imul: 'multiply', idiv: 'divide' };

/** NumPy's 'same_kind' casting, which in-place ufuncs use: safe casts, or casts within one kind. */
function canCastSameKind(from: DType, to: DType): boolean {
  const kind = (d: DType) => dtypeInfo(d).kind;
  return canCastSafely(from, to) || kind(from) === kind(to);
}

/** The new values of `target` (its shape, its dtype) that `op` with operand `v` writes. */
function newValues(op: InPlaceOp, target: Node, v: Operand): Node {
  const fn = `${op}()`;
  const into = `into a ${target.dtype}${formatShape(target.shape)} array`;
  if (op === 'assign' || op === 'set') {
    let value: Node;
    if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') {
      // A JS number is a Python scalar to NumPy: truncated into integers, refused when out of range.
      const x = typeof v === 'boolean' ? Number(v) : v;
      checkScalarFits(x, target.dtype, `${fn}: the value`);
      value = scalar(castValue(x, target.dtype), target.dtype);
    } else {
      value = anyNode(v, fn, 0);
    }
    const shape = broadcastShapes([value.shape, target.shape], fn);
    if (!sameShape(shape, target.shape)) {
      throw new ShapeError(`${fn}: could not broadcast the value of shape ${formatShape(value.shape)} ${into}; it must broadcast to ${formatShape(target.shape)}`);
    }
    // Assignment casts unsafely, as NumPy's x[...] = v does (floats truncate into integers).
    return cast(broadcastTo(value, target.shape), target.dtype);
  }
  const ufunc = UFUNC[op];
  const result = elementwise(ufunc, operandNodes(ufunc, [wrapNode(target), v], [0, 1]));
  if (!sameShape(result.shape, target.shape)) {
    throw new ShapeError(`${fn}: the result would have shape ${formatShape(result.shape)}, which does not fit ${into} (the operand must broadcast to ${formatShape(target.shape)})`);
  }
  if (!canCastSameKind(result.dtype, target.dtype)) {
    throw new DTypeError(
      `${fn}: ${ufunc} gives ${result.dtype}, which cannot be stored ${into} in place (NumPy's 'same_kind' casting rule); ` +
      `compute a new array instead (x.${ufunc}(v)), or assign() it to cast explicitly`,
    );
  }
  return cast(result, target.dtype);
}

/** How the part written is reached from the array, for printers: '.reshape(8, 8)[1:7, 1:7]'. */
function whereLabel(target: Node, base: Node): string {
  const parts: string[] = [];
  for (let n = target; n !== base && n.inputs.length === 1; n = n.inputs[0]!) {
    const v = viewOf(n);
    if (n.op === 'reshape') parts.push(`.reshape${formatShape(n.shape)}`);
    else if (n.op === 'transpose') parts.push(`.transpose(${n.attrs.axes.join(', ')})`);
    else if (n.op === 'slice' && v?.axes && v.steps && v.starts) {
      const idx = n.inputs[0].shape.map((_, a) => {
        const i = v.axes!.indexOf(a);
        if (i < 0) return String(v.starts![a]);
        const start = v.starts![a]!;
        const step = v.steps![i]!;
        const stop = start + step * n.shape[i]!;
        return `${start}:${stop < 0 ? '' : stop}${step === 1 ? '' : `:${step}`}`;
      });
      parts.push(`[${idx.join(', ')}]`);
    } else parts.push(`.${n.op}()`);
  }
  return parts.reverse().join('');
}

/** Enqueues `op` on x (or on x.get(...index)) and moves x to the version it writes. */
function writeInPlace(x: DeferredArray, op: InPlaceOp, v: Operand, index?: readonly IndexArg[]): DeferredArray {
  if (!(x instanceof DeferredArray)) throw new TypeError(`${op}(): call it on a DeferredArray; got ${describe(x)}`);
  checkNotTracing(`${op}()`);
  // The trace runs its stages as they are forced, synchronously too: it never reads a file or store.
  if (readsMapped([nodeOf(x)]) || (v instanceof DeferredArray && readsMapped([nodeOf(v)]))) {
    throw new NotSupportedError(`${op}(): ${readsMapped([nodeOf(x)]) ? 'this array' : 'the value'} reads an array loaded with mmapMode or from fromZarr, ` +
      'whose values stay in their file or store; arrays written in place take arrays in memory: compute it first (await v.execute()) and write that');
  }
  const live = liveOf(x);
  let target = nodeOf(x);
  let window = live.window;
  if (index) {
    const sliced = slice(target, index);
    if (sliced !== target) {
      window = window && viewWindow(window, expectOp(sliced, 'slice').attrs.view, sliced.shape);
      target = sliced;
    }
  }
  if (!window) {
    throw new TypeError(`${op}(): this array is a broadcast or sliding-window view, read-only as in NumPy (one element would be written several times); ` +
      'write to the array it views, or copy it first');
  }
  const whole = isWhole(window, live.cell.node.shape);
  // A write to all of the array through a reshape of it is a write of the whole array, in its own shape.
  // Trace stages are planned without deciding conds, so a cond in the value is decided now: its predicate
  // runs in program order (as a mask's values are read when a selection is made), its other branch never.
  const [decided] = defaultLinker.decideConds([newValues(op, target, v)]);
  const values = copyViews(decided!);
  const value = whole ? reshape(values, live.cell.node.shape) : values;
  // Refused now, before anything changes, if it reads values already overwritten.
  const reads = readsOf([value]);
  checkReadable(reads);
  const storage = live.cell.storageForWrite(whole && (op === 'assign' || op === 'set'));
  enqueue(op, storage, value, reads, whole ? undefined : window, whole ? '' : whereLabel(target, live.cell.node));
  live.cell.node = storage.leaf(storage.latest);
  return x;
}

export { writeInPlace, canCastSameKind };
