// The launch side of pinned temporaries: checks each temporary's own launch
// against its spec, writes its launch block, the table of the range each
// block reads (see temp-ranges.ts), and sizes the scratch area: one part per
// thread that may run blocks at once, each holding every temporary's largest
// range.
import { TEMPS, launchBlockBytes, randomOffset } from './args-layout.js';
import { checkRandomArrays, isRowMajor, writeLaunchBlock, writeRandomWords } from './launch-block.js';
import { KTYPE_BYTES } from './kernel-spec.js';
import type { KernelSpec, TempSpec } from './kernel-spec.js';
import { at } from '../internal-error.js';
import type { LaunchArray, TempLaunch } from './launch-types.js';
import { blockRange } from './temp-ranges.js';

/** A temporary as planned for a launch: its spec and launch, its largest range in elements and its per-block table. */
interface PlannedTemp {
  readonly spec: TempSpec;
  readonly launch: TempLaunch;
  readonly table: Int32Array;
  readonly most: number;
}

/** Checks the temporaries' launches against `specs` (the kernel's temporaries) and plans each one's ranges. */
function planTemps(specs: readonly TempSpec[], shape: readonly number[], arrays: readonly LaunchArray[], temps: readonly TempLaunch[] | undefined,
  blocks: number, blockSize: number, total: number): PlannedTemp[] {
  if (!temps || temps.length !== specs.length) {
    throw new RangeError(`launch: the kernel computes ${specs.length} pinned temporar${specs.length === 1 ? 'y' : 'ies'}; give launch.temps, one per temporary`);
  }
  return specs.map((t, i) => {
    const tl = at(temps, i, 'temporary launch');
    const what = `launch.temps[${i}]`;
    if (tl.shape.length !== t.kernel.ndim) throw new RangeError(`${what}: its kernel has ${t.kernel.ndim} axes but the shape ${JSON.stringify(tl.shape)} has ${tl.shape.length}`);
    if (tl.arrays.length !== t.kernel.arrays.length) throw new RangeError(`${what}: its kernel takes ${t.kernel.arrays.length} arrays; got ${tl.arrays.length}`);
    checkRandomArrays(t.kernel.arrays, tl.arrays, what);
    const size = tl.shape.reduce((a, b) => a * b, 1);
    if (size > 0 && !isRowMajor(tl.shape, at(tl.arrays, t.out, 'array').strides)) throw new RangeError(`${what}: its output must be row-major over its shape`);
    const s = at(arrays, t.array, 'array').strides;
    const reach = shape.reduce((a, n, d) => a + (n - 1) * at(s, d, 'stride'), 0);
    if (total > 0 && (s.some((x) => x < 0) || reach >= size)) {
      throw new RangeError(`${what}: the body reads it with strides ${JSON.stringify(s)}, which must be non-negative and stay within its ${size} elements`);
    }
    const table = new Int32Array(2 * blocks);
    let most = 0;
    for (let b = 0; b < blocks; b++) {
      const [lo, hi] = blockRange(shape, s, b * blockSize, Math.min(total, (b + 1) * blockSize));
      table[2 * b] = lo;
      table[2 * b + 1] = hi;
      most = Math.max(most, hi - lo);
    }
    return { spec: t, launch: tl, table, most };
  });
}

/**
 * Writes the temporaries' fields at `at` in the launch block `argsPtr`, with
 * their launch blocks, tables and scratch taken from `alloc`. Returns the
 * scratch area and the temporaries' launch blocks (their flags count too).
 */
function writeTemps(spec: KernelSpec, words: () => Int32Array, alloc: (bytes: number) => number, argsPtr: number, fieldsAt: number,
  planned: readonly PlannedTemp[], threads: number): { scratch: number; tempArgs: number[] } {
  const offsets: number[] = [];
  let perThread = 0;
  for (const p of planned) {
    offsets.push(perThread);
    perThread += Math.ceil((p.most * KTYPE_BYTES[at(spec.arrays, p.spec.array, 'array').dtype]) / 16) * 16;
  }
  const scratch = alloc(Math.max(16, perThread * threads));
  const tempArgs = planned.map((p, i) => {
    const tl = p.launch;
    const ptr = alloc(launchBlockBytes(p.spec.kernel));
    const table = alloc(Math.max(8, p.table.byteLength));
    const size = tl.shape.reduce((a, b) => a * b, 1);
    const w = words();
    w.set(p.table, table >>> 2);
    writeLaunchBlock(w, ptr, { total: size, blockSize: Math.max(1, size), partials: 0, segment: Math.max(1, size), segmentLcm: Math.max(1, size) }, tl.shape, tl.arrays);
    writeRandomWords(w, ptr + randomOffset(p.spec.kernel), tl.arrays);
    const field = fieldsAt + TEMPS.first + TEMPS.stride * i;
    w[(argsPtr + field + TEMPS.args) >>> 2] = ptr;
    w[(argsPtr + field + TEMPS.table) >>> 2] = table;
    w[(argsPtr + field + TEMPS.offset) >>> 2] = at(offsets, i, 'offset');
    return ptr;
  });
  const w = words();
  w[(argsPtr + fieldsAt + TEMPS.scratch) >>> 2] = scratch;
  w[(argsPtr + fieldsAt + TEMPS.perThread) >>> 2] = perThread;
  w[(argsPtr + fieldsAt + TEMPS.slot) >>> 2] = 0;
  w[(argsPtr + fieldsAt + TEMPS.slots) >>> 2] = threads;
  return { scratch, tempArgs };
}

export { planTemps, writeTemps };
export type { PlannedTemp };
