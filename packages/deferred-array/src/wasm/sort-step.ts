// sort and argsort by kernels-wasm's radix sort, and select by its
// quickselect, line by line on the calling thread: lines along the last axis
// of a contiguous array are read where they lie; any other layout is copied
// first with the axis last (a copy kernel), and the result's lines are
// copied back into place the same way.
import { selectLines, sortLines } from 'kernels-wasm';
import type { SortKind } from 'kernels-wasm';
import type { DType } from '../ir/dtypes.js';
import type { FamilyNode, SelectAttrs } from '../ir/node.js';
import { sizeOf } from '../ir/shape.js';
import { dropValue, isContiguous } from './heap-value.js';
import type { HeapValue } from './heap-value.js';
import type { StepHeap } from './step-heap.js';

/** The radix sort's element kind of each dtype (bool as bytes: false before true). */
const SORT_KINDS: Record<DType, SortKind> = {
  float64: 'f64', float32: 'f32', int64: 'i64', uint64: 'u64', int32: 'i32', uint32: 'u32',
  int16: 'i16', uint16: 'u16', int8: 'i8', uint8: 'u8', bool: 'u8',
};

const permute = <T>(a: readonly T[], order: readonly number[]): T[] => order.map((d) => a[d]!);

/** The sorted values (or positions, or the values at the positions selected) of x along the node's axis, in the node's block. x has at least one axis. */
function sortStep(n: FamilyNode<'sort'>, x: HeapValue, h: StepHeap): HeapValue {
  const { axis } = n.attrs;
  const line = x.shape[axis]!;
  const lines = sizeOf(x.shape) / Math.max(1, line);
  // The axes with the sorted one last.
  const moved = axis === x.shape.length - 1 ? undefined : [...x.shape.keys()].filter((d) => d !== axis).concat(axis);
  const lined = !moved && isContiguous(x) && !x.random
    ? x
    : h.copy(moved ? { ...x, shape: permute(x.shape, moved), strides: permute(x.strides, moved) } : x, x.dtype, `copy of a ${n.op} operand, its axis last`);
  const out = h.place(n);
  const direct = !moved && isContiguous(out);
  const positions = n.op === 'select' ? (n.attrs as SelectAttrs).positions : undefined;
  const sorted = direct ? out : h.temp(n.dtype, positions ? [...lined.shape.slice(0, -1), positions.length] : lined.shape);
  if (positions) selectLines(h.heap, SORT_KINDS[x.dtype], lined.ptr, sorted.ptr, line, lines, positions);
  else sortLines(h.heap, SORT_KINDS[x.dtype], lined.ptr, sorted.ptr, line, lines, n.op === 'sort' ? 'values' : 'positions');
  if (lined !== x) dropValue(lined);
  if (direct) return out;
  // Back into place: the sorted lines read with the axis where it was.
  const back = moved?.map((_, d) => moved.indexOf(d));
  h.copyInto(back ? { ...sorted, shape: n.shape, strides: permute(sorted.strides, back) } : sorted, out, `${n.op} lines into place`);
  dropValue(sorted);
  return out;
}

export { sortStep };
