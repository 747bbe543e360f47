// Scans along long lines, several blocks at a time. A scan's running value
// waits on the element before it (an add's latency per element, about three
// times a streaming loop's cost). Where each block of a line is a piece of
// its own (the launch gives every piece its starting value), SCAN_CHAINS
// consecutive blocks are independent chains: one loop takes an element of
// each in turn, so their additions overlap. Each piece still accumulates in
// element order from the same start, so the bits are those of one block at a
// time.
//
// A group of blocks is chained when the claim hands the kernel SCAN_CHAINS
// blocks or more (the claim loop takes that many at once for such kernels),
// every block of the group is full, and each block is one piece: its line is
// the whole space, or lines are whole numbers of blocks. Other blocks take
// the row kernel's way.
import type { Local } from '../encode/index.js';
import { at } from '../internal-error.js';
import { ARGS, arrayPtrOffset, arrayStrideOffset } from './args-layout.js';
import { scalarType } from './context.js';
import type { EmitContext } from './context.js';
import { emitBody, loadArg, loop, bump } from './emit-loops.js';
import type { ScanInstr } from './emit-loops.js';
import { KTYPE_BYTES } from './kernel-spec.js';
import type { KernelSpec } from './kernel-spec.js';
import { combineScalar, fromF64 } from './reduce-ops.js';
import { emitLoad, emitScalarInstr, emitStore } from './scalar-ops.js';
import type { Lanes } from './simd-widths.js';

/** Blocks chained at once: enough independent additions to hide an add's latency. */
const SCAN_CHAINS = 4;

/**
 * Whether a kernel's scans run chained: a one-axis row kernel with scans and
 * no vector lanes, reductions, gathers or random arrays (whose element
 * addresses are not a pointer stepped along the block).
 */
function chainsScans(spec: KernelSpec, lanes: Lanes | undefined): boolean {
  return spec.ndim === 1 && lanes === undefined && spec.mode !== 'columns' && !spec.contraction && !spec.temps
    && spec.body.some((ins) => ins.op === 'scan')
    && spec.body.every((ins) => ins.op !== 'reduce' && ins.op !== 'gather')
    && spec.arrays.every((a) => !a.random && !a.gathered);
}

/** The row kernel's locals the chains read: the space's size, the block size and the reduced run's length. */
interface ChainLocals {
  readonly total: Local;
  readonly bs: Local;
  readonly seg: Local;
  /** The body's scalar value locals. */
  readonly values: readonly Local[];
}

/**
 * Runs groups of SCAN_CHAINS blocks from blockBegin, chained, while whole
 * groups are left; `from` is set to the first block not run.
 */
function emitScanChains(ctx: EmitContext, spec: KernelSpec, k: ChainLocals, blockBegin: Local, blockEnd: Local, from: Local): void {
  const f = ctx.f;
  const i32 = (): Local => f.local('i32');
  const scans = spec.body.filter((ins): ins is ScanInstr => ins.op === 'scan');
  const acc = Array.from({ length: SCAN_CHAINS }, () => scans.map((x) => f.local(scalarType(x.type))));
  const ptr = Array.from({ length: SCAN_CHAINS }, () => spec.arrays.map(i32));
  const stride = spec.arrays.map(i32);
  const [full, j] = [i32(), i32()];
  const types = spec.body.map((ins) => ins.type);

  f.op('local.get', blockBegin).op('local.set', from);
  // Each block is one piece (numbered as the block) where the line is the whole space or a whole number of blocks.
  f.op('local.get', k.seg).op('local.get', k.total).op('i32.eq');
  f.op('local.get', k.seg).op('local.get', k.bs).op('i32.rem_u').op('i32.eqz').op('i32.or').if();
  f.op('local.get', k.total).op('local.get', k.bs).op('i32.div_u').op('local.set', full);
  spec.arrays.forEach((a, n) => {
    loadArg(ctx, arrayStrideOffset(1, n, 0));
    f.op('i32.const', KTYPE_BYTES[a.dtype]).op('i32.mul').op('local.set', at(stride, n, 'array stride'));
  });
  const groupLeft = (): void => {
    f.op('local.get', from).op('i32.const', SCAN_CHAINS).op('i32.add').op('local.tee', j);
    f.op('local.get', blockEnd).op('i32.gt_u');
    f.op('local.get', j).op('local.get', full).op('i32.gt_u').op('i32.or');
  };
  loop(f, groupLeft, () => {
    for (let u = 0; u < SCAN_CHAINS; u++) {
      // Chain u's pointers at the start of block from + u, and its scans' starting values.
      spec.arrays.forEach((_, n) => {
        loadArg(ctx, arrayPtrOffset(1, n));
        f.op('local.get', from).op('i32.const', u).op('i32.add').op('local.get', k.bs).op('i32.mul')
          .op('local.get', at(stride, n, 'array stride')).op('i32.mul').op('i32.add')
          .op('local.set', at(at(ptr, u, 'chain'), n, 'pointer'));
      });
      scans.forEach((x, s) => {
        loadArg(ctx, ARGS.partials);
        f.op('local.get', from).op('i32.const', u).op('i32.add').op('i32.const', spec.slots).op('i32.mul')
          .op('i32.const', x.slot).op('i32.add').op('i32.const', 8).op('i32.mul').op('i32.add');
        f.mem('f64.load', { align: 0 });
        fromF64(f, x.type, true);
        f.op('local.set', at(at(acc, u, 'chain'), s, 'scan'));
      });
    }
    f.op('i32.const', 0).op('local.set', j);
    loop(f, () => { f.op('local.get', j).op('local.get', k.bs).op('i32.ge_u'); }, () => {
      for (let u = 0; u < SCAN_CHAINS; u++) {
        const cur = at(ptr, u, 'chain');
        emitBody(ctx, spec, k.values, cur, (n) => {
          f.op('local.get', at(cur, n, 'pointer'));
          emitLoad(ctx, at(spec.arrays, n, 'array').dtype, 0);
        }, (ins) => emitScalarInstr(ctx, ins, k.values, types), () => {}, (n) => { emitStore(ctx, at(spec.arrays, n, 'array').dtype, 0); },
        undefined, (x, s) => {
          const a = at(at(acc, u, 'chain'), s, 'scan');
          combineScalar(f, x.fn, x.type, a, at(k.values, x.arg, 'value'));
          f.op('local.get', a);
        });
      }
      for (const cur of ptr) {
        spec.arrays.forEach((a, n) => {
          if (a.inner === 'broadcast') return;
          const p = at(cur, n, 'pointer');
          f.op('local.get', p).op('local.get', at(stride, n, 'array stride')).op('i32.add').op('local.set', p);
        });
      }
      bump(f, j, 1);
    });
    bump(f, from, SCAN_CHAINS);
  });
  f.end();
}

export { SCAN_CHAINS, chainsScans, emitScanChains };
