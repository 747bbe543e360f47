// A kernel's gathers (take): each index resolved by its mode into
// [0, length), then the element read at the gathered array's current
// pointer plus the index times the gathered axis's stride. An index 'raise'
// cannot place counts in the index flag and reads element 0, so no read
// leaves the array. The scalar loop gathers an element at a time; in lanes,
// each lane's element is loaded at its own index into that lane.
import type { Local } from '../encode/index.js';
import { InternalError, at } from '../internal-error.js';
import { ARGS, GATHER_WORDS_BYTES, gatherOffset } from './args-layout.js';
import { is64K } from './context.js';
import type { EmitContext } from './context.js';
import { bumpFlag, setArg } from './emit-values.js';
import { KTYPE_BYTES } from './kernel-spec.js';
import type { KInstr, KType, KernelSpec } from './kernel-spec.js';
import { emitLoad } from './scalar-ops.js';
import { LANE_COUNT } from './simd-widths.js';
import type { Lanes } from './simd-widths.js';

type GatherInstr = Extract<KInstr, { op: 'gather' }>;

/** A kernel's gathers: set up once per row, then each element's (scalar) or each vector's (lanes). */
interface GatherEmitter {
  /** Reads each gathered array's axis length and stride from the launch block. */
  readonly setup: () => void;
  /** Pushes the gather's element, its pointer `offset` bytes on. */
  readonly emit: (g: GatherInstr, offset?: number) => void;
  /**
   * Pushes the gather's vector in `lanes` (f64x2, f32x4 or i32x4): each
   * lane's element at its own index, lane l at `laneOffset(l)` bytes on.
   * Lane l's index is `laneIndex(l)` where given (pushes it as an i32, as
   * read from its array), else taken out of the i32x4 or f64x2 vector
   * `index` (f64x2 holds an int32 exactly; f32x4 does not, so float32 lanes
   * are always given laneIndex).
   */
  readonly emitLanes: (g: GatherInstr, lanes: Lanes, index: Local, laneOffset: (l: number) => number, laneIndex?: (l: number) => void) => void;
}

/** The integer width an index is resolved in: int64 and uint64 indices in i64, so an index past 2^32 never wraps into the axis. */
type IndexWidth = 'i32' | 'i64';

function gatherEmitter(ctx: EmitContext, spec: KernelSpec, vals: readonly Local[], cur: readonly Local[]): GatherEmitter {
  const f = ctx.f;
  const typeOf = (g: GatherInstr): KType => at(spec.body, g.index, 'gather index').type;
  const widthOf = (g: GatherInstr): IndexWidth => (is64K(typeOf(g)) ? 'i64' : 'i32');
  // The index being resolved and a scratch, per width in use.
  const locals = new Map<IndexWidth, { readonly ix: Local; readonly t: Local }>([['i32', { ix: f.local('i32'), t: f.local('i32') }]]);
  if (spec.body.some((ins) => ins.op === 'gather' && widthOf(ins) === 'i64')) locals.set('i64', { ix: f.local('i64'), t: f.local('i64') });
  const localsOf = (w: IndexWidth): { readonly ix: Local; readonly t: Local } => {
    const l = locals.get(w);
    if (!l) throw new InternalError(`an ${w} gather index without its locals`);
    return l;
  };
  // Each gathered array's axis length and stride in bytes, read from the launch block once per row, not per element.
  const fields = new Map<number, { readonly at: number; readonly length: Local; readonly stride: Local }>();
  spec.arrays.forEach((a, k) => {
    if (a.gathered) fields.set(k, { at: gatherOffset(spec) + GATHER_WORDS_BYTES * fields.size, length: f.local('i32'), stride: f.local('i32') });
  });
  const setup = (): void => {
    for (const [k, w] of fields) {
      setArg(ctx, w.at, w.length);
      setArg(ctx, w.at + 4, w.stride, KTYPE_BYTES[at(spec.arrays, k, 'gathered array').dtype]);
    }
  };
  /**
   * Pushes the index in the width's `ix` resolved by `mode` into [0, length),
   * as an i32. Indices in [0, length) take the short way: one unsigned
   * compare. Few instructions per element let more reads be in flight at
   * once, which is what a gather from memory waits on. An `unsigned` index
   * (uint64) past the axis has no negative side: 'raise' cannot place it,
   * 'wrap' takes its unsigned remainder, 'clip' the last element.
   */
  const resolve = (mode: GatherInstr['mode'], width: IndexWidth, lengthLocal: Local, unsigned: boolean): void => {
    const { ix, t } = localsOf(width);
    const length = (): void => {
      f.op('local.get', lengthLocal);
      if (width === 'i64') f.op('i64.extend_i32_u');
    };
    const zero = (): void => { f.op(`${width}.const`, width === 'i64' ? 0n : 0); };
    const narrow = (): void => { if (width === 'i64') f.op('i32.wrap_i64'); };
    f.op('local.get', ix);
    length();
    f.op(`${width}.lt_u`).if('i32');
    f.op('local.get', ix);
    narrow();
    f.else();
    if (unsigned && mode !== 'wrap') {
      if (mode === 'raise') bumpFlag(ctx, ARGS.flagIndex);
      f.op('i32.const', mode === 'raise' ? 0 : -1);
      if (mode === 'clip') f.op('local.get', lengthLocal).op('i32.add');
    } else if (unsigned) {
      f.op('local.get', ix);
      length();
      f.op(`${width}.rem_u`);
      narrow();
    } else if (mode === 'raise') {
      // idx + length, read unsigned, is below length exactly for idx in [-length, 0).
      f.op('local.get', ix);
      length();
      f.op(`${width}.add`).op('local.tee', t);
      length();
      f.op(`${width}.lt_u`).if('i32');
      f.op('local.get', t);
      narrow();
      f.else();
      bumpFlag(ctx, ARGS.flagIndex);
      f.op('i32.const', 0);
      f.end();
    } else if (mode === 'wrap') {
      // idx rem length, plus length where that is negative.
      f.op('local.get', ix);
      length();
      f.op(`${width}.rem_s`).op('local.tee', t);
      length();
      zero();
      f.op('local.get', t);
      zero();
      f.op(`${width}.lt_s`).op('select').op(`${width}.add`);
      narrow();
    } else {
      // Below 0 (negative): 0; else (length or more): length - 1.
      f.op('i32.const', 0).op('local.get', lengthLocal).op('i32.const', 1).op('i32.sub').op('local.get', ix);
      zero();
      f.op(`${width}.lt_s`).op('select');
    }
    f.end();
  };
  /** Pushes the address of the element at the index in g's width's `ix`, resolved by g's mode. */
  const address = (g: GatherInstr): void => {
    const w = fields.get(g.array);
    if (w === undefined) throw new InternalError(`array ${g.array} is not gathered`);
    const t = localsOf('i32').t;
    resolve(g.mode, widthOf(g), w.length, typeOf(g) === 'uint64');
    f.op('local.set', t);
    f.op('local.get', at(cur, g.array, 'array pointer')).op('local.get', t).op('local.get', w.stride).op('i32.mul').op('i32.add');
  };
  const emit = (g: GatherInstr, offset = 0): void => {
    f.op('local.get', at(vals, g.index, 'gather index')).op('local.set', localsOf(widthOf(g)).ix);
    address(g);
    emitLoad(ctx, g.type, offset);
  };
  const emitLanes = (g: GatherInstr, lanes: Lanes, index: Local, laneOffset: (l: number) => number, laneIndex?: (l: number) => void): void => {
    if (lanes !== 'f64x2' && lanes !== 'f32x4' && lanes !== 'i32x4') throw new InternalError(`a gather in ${lanes} lanes`);
    if (widthOf(g) !== 'i32') throw new InternalError('a gather in lanes at 64-bit indices');
    if (!laneIndex && lanes === 'f32x4') throw new InternalError('a gather in f32x4 lanes takes its indices from their array');
    const { ix } = localsOf('i32');
    const into = f.local('v128');
    // Any vector to put the lanes into: the index's own.
    f.op('local.get', index).op('local.set', into);
    for (let l = 0; l < LANE_COUNT[lanes]; l++) {
      if (laneIndex) laneIndex(l);
      else {
        f.op('local.get', index);
        if (lanes === 'f64x2') f.op('f64x2.extract_lane', l).op('i32.trunc_sat_f64_s');
        else f.op('i32x4.extract_lane', l);
      }
      f.op('local.set', ix);
      // The element read as the scalar loop reads it (an integer extended to i32), into lane l.
      f.op('local.get', into);
      address(g);
      emitLoad(ctx, g.type, laneOffset(l));
      f.op(`${lanes}.replace_lane`, l).op('local.set', into);
    }
    f.op('local.get', into);
  };
  return { setup, emit, emitLanes };
}

export { gatherEmitter };
export type { GatherEmitter, GatherInstr };
