// How the operands of a matmul or dot reach a contraction kernel: as strided
// matrices (one batch, row and column stride each) read in place where their
// windows allow, else as contiguous copies made first. A copy is made for an
// operand of another dtype than the product (the cast NumPy makes), for batch
// axes that do not flatten to one stride, and for a layout neither
// vectorisation reads (B strided along its columns; A strided along k in a
// matrix-vector product). Matrix-vector products whose matrix is transposed
// run as the transposed product (y = x^T A^T), which reads it in place.
import type { ContractionLaunch, ContractionOperand } from 'kernels-wasm';
import type { DType } from '../ir/dtypes.js';
import type { Node } from '../ir/node.js';
import { sizeOf } from '../ir/shape.js';
import type { HeapValue } from './heap-value.js';
import { mergeAxes } from './strides.js';

/** An operand as a batch of matrices: its window, and the logical shape [...batch, rows, cols] with strides. */
interface Matrix {
  readonly value: HeapValue;
  readonly shape: readonly number[];
  readonly strides: readonly number[];
}

interface ContractionOperands {
  readonly launch: ContractionLaunch;
  readonly vectorise: 'columns' | 'rows';
}

/** Makes a contiguous copy of `v` (any strides, zeros broadcasting) in `dtype`; the caller frees it after the launch. */
type CopyFn = (v: HeapValue, dtype: DType) => HeapValue;

/** [batch, row, col] strides of a matrix whose leading axes are `batchDims` of it, rows `rowDims`, columns `colDims`. */
function flatten(m: Matrix, batchDims: number, rowDims: number): [number, number, number] | undefined {
  const axes = (from: number, to: number): number[] => Array.from({ length: to - from }, (_, i) => from + i);
  const part = (from: number, to: number): number | undefined => mergeAxes(m.shape, m.strides, axes(from, to));
  const b = part(0, batchDims);
  const r = part(batchDims, batchDims + rowDims);
  const c = part(batchDims + rowDims, m.shape.length);
  return b === undefined || r === undefined || c === undefined ? undefined : [b, r, c];
}

/** The logical matrices of a matmul: 1-D operands promoted (a as one row, b as one column), batch axes broadcast. */
function matmulMatrices(node: Node, a: HeapValue, b: HeapValue): { A: Matrix; B: Matrix; batch: number[] } {
  const batch = node.shape.slice(0, node.shape.length - (a.shape.length > 1 ? 1 : 0) - (b.shape.length > 1 ? 1 : 0));
  const promote = (v: HeapValue, asRow: boolean): Matrix => {
    const shape = v.shape.length === 1 ? (asRow ? [1, ...v.shape] : [...v.shape, 1]) : [...v.shape];
    const strides = v.shape.length === 1 ? (asRow ? [0, ...v.strides] : [...v.strides, 0]) : [...v.strides];
    const lead = batch.length - (shape.length - 2);
    return {
      value: v,
      shape: [...batch, ...shape.slice(-2)],
      strides: [...batch.slice(0, lead).map(() => 0), ...strides.slice(0, -2).map((s, d) => (shape[d] === 1 ? 0 : s)), ...strides.slice(-2)],
    };
  };
  return { A: promote(a, true), B: promote(b, false), batch };
}

/** dot: a's leading axes are rows, b's axes other than its second-to-last (or only) one are columns. */
function dotMatrices(a: HeapValue, b: HeapValue): { A: Matrix; B: Matrix; rowDims: [number, number] } {
  const kAxis = b.shape.length === 1 ? 0 : b.shape.length - 2;
  // b's axes with kAxis moved first.
  const kFirst = (xs: readonly number[]): number[] => [...xs.slice(kAxis, kAxis + 1), ...xs.filter((_, d) => d !== kAxis)];
  return {
    A: { value: a, shape: a.shape, strides: a.strides },
    B: { value: b, shape: kFirst(b.shape), strides: kFirst(b.strides) },
    rowDims: [a.shape.length - 1, 1],
  };
}

/**
 * The launch of a matmul/dot `node` on operand windows `a`, `b`: strided where
 * possible, copies (through `copy`) where not.
 */
function contractionOperands(node: Node, a: HeapValue, b: HeapValue, copy: CopyFn): ContractionOperands {
  const isMatmul = node.op === 'matmul';
  const { A, B, batchDims, rowDims } = isMatmul
    ? (() => { const m = matmulMatrices(node, a, b); return { ...m, batchDims: m.batch.length, rowDims: [1, 1] as [number, number] }; })()
    : { ...dotMatrices(a, b), batchDims: 0 };
  const size = (m: Matrix, from: number, to: number): number => sizeOf(m.shape.slice(from, to));
  const batches = size(A, 0, batchDims);
  const P = size(A, batchDims, batchDims + rowDims[0]);
  const K = size(A, batchDims + rowDims[0], A.shape.length);
  const Q = size(B, batchDims + rowDims[1], B.shape.length);
  /** The operand as [batch, row, col] strides, copied to a contiguous array first when it must be. */
  const operand = (m: Matrix, rows: number, mustCopy: (s: [number, number, number]) => boolean): ContractionOperand => {
    let s = m.value.dtype === node.dtype ? flatten(m, batchDims, rows) : undefined;
    let ptr = m.value.ptr;
    if (!s || mustCopy(s)) {
      const c = copy({ ...m.value, shape: m.shape, strides: m.strides }, node.dtype);
      s = flatten({ value: c, shape: c.shape, strides: c.strides }, batchDims, rows)!;
      ptr = c.ptr;
    }
    // A stride across an axis of length 1 is never walked: 0 for a single batch, 1 for a single column.
    const [batch, row, col] = s;
    return { ptr, batch: batches === 1 ? 0 : batch, row, col };
  };
  const fix = (o: ContractionOperand, cols: number): ContractionOperand => (cols === 1 ? { ...o, col: 1 } : o);
  const bOp = fix(operand(B, 1, () => false), Q);
  const aOp = fix(operand(A, rowDims[0], () => false), K);
  const sizes = { batches, P, K, Q };

  if (Q === 1 && P > 1) {
    // Matrix-vector: lanes along rows of A, or the transposed product when A is transposed.
    if (aOp.col === 1) return { vectorise: 'rows', launch: { ...sizes, a: aOp, b: bOp } };
    if (aOp.row === 1) return { vectorise: 'columns', launch: { ...sizes, P: 1, Q: P, a: transposed(bOp), b: transposed(aOp) } };
    return { vectorise: 'rows', launch: { ...sizes, a: operand(A, rowDims[0], () => true), b: bOp } };
  }
  if (bOp.col === 1) return { vectorise: 'columns', launch: { ...sizes, a: aOp, b: bOp } };
  // Vector-matrix with B transposed: the transposed product is a matrix-vector one that reads B in place.
  if (P === 1 && bOp.row === 1) return { vectorise: 'rows', launch: { ...sizes, P: Q, Q: 1, a: transposed(bOp), b: transposed(aOp) } };
  return { vectorise: 'columns', launch: { ...sizes, a: aOp, b: operand(B, 1, () => true) } };
}

const transposed = (o: ContractionOperand): ContractionOperand => ({ ptr: o.ptr, batch: o.batch, row: o.col, col: o.row });

export { contractionOperands };
export type { ContractionOperands, CopyFn };
