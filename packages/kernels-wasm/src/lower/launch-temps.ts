// The launch side of pinned temporaries: checks each temporary's own launch
// against its spec, writes its launch block, the table of the range each
// block reads (see temp-ranges.ts), and sizes the scratch area: one part per
// thread that may run blocks at once, each holding every temporary's largest
// range.
import { TEMPS, launchBlockBytes, randomOffset } from './args-layout.js';
import { checkRandomArrays, isRowMajor, writeLaunchBlock, writeRandomWords } from './launch-block.js';
import { KTYPE_BYTES } from './kernel-spec.js';
import type { KernelSpec } from './kernel-spec.js';
import type { LaunchArray } from './launch.js';
import { blockRange } from './temp-ranges.js';

/** A pinned temporary's launch: its own space and arrays (its output's pointer is not used: it is computed into scratch). */
interface TempLaunch {
  readonly shape: readonly number[];
  readonly arrays: readonly LaunchArray[];
}


/** Checks the temporaries' launches; returns each one's largest range in elements and its per-block table. */
function planTemps(spec: KernelSpec, shape: readonly number[], arrays: readonly LaunchArray[], temps: readonly TempLaunch[] | undefined,
  blocks: number, blockSize: number, total: number): Array<{ table: Int32Array; most: number }> {
  const specs = spec.temps!;
  if (!temps || temps.length !== specs.length) {
    throw new RangeError(`launch: the kernel computes ${specs.length} pinned temporar${specs.length === 1 ? 'y' : 'ies'}; give launch.temps, one per temporary`);
  }
  return specs.map((t, i) => {
    const tl = temps[i]!;
    const what = `launch.temps[${i}]`;
    if (tl.shape.length !== t.kernel.ndim) throw new RangeError(`${what}: its kernel has ${t.kernel.ndim} axes but the shape ${JSON.stringify(tl.shape)} has ${tl.shape.length}`);
    if (tl.arrays.length !== t.kernel.arrays.length) throw new RangeError(`${what}: its kernel takes ${t.kernel.arrays.length} arrays; got ${tl.arrays.length}`);
    checkRandomArrays(t.kernel.arrays, tl.arrays, what);
    const size = tl.shape.reduce((a, b) => a * b, 1);
    if (size > 0 && !isRowMajor(tl.shape, tl.arrays[t.out]!.strides)) throw new RangeError(`${what}: its output must be row-major over its shape`);
    const s = arrays[t.array]!.strides;
    const reach = shape.reduce((a, n, d) => a + (n - 1) * s[d]!, 0);
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
    return { table, most };
  });
}

/**
 * Writes the temporaries' fields at `at` in the launch block `argsPtr`, with
 * their launch blocks, tables and scratch taken from `alloc`. Returns the
 * scratch area and the temporaries' launch blocks (their flags count too).
 */
function writeTemps(spec: KernelSpec, words: () => Int32Array, alloc: (bytes: number) => number, argsPtr: number, at: number,
  temps: readonly TempLaunch[], planned: ReturnType<typeof planTemps>, threads: number): { scratch: number; tempArgs: number[] } {
  const specs = spec.temps!;
  const offsets: number[] = [];
  let perThread = 0;
  specs.forEach((t, i) => {
    offsets.push(perThread);
    perThread += Math.ceil((planned[i]!.most * KTYPE_BYTES[spec.arrays[t.array]!.dtype]) / 16) * 16;
  });
  const scratch = alloc(Math.max(16, perThread * threads));
  const tempArgs = specs.map((t, i) => {
    const tl = temps[i]!;
    const ptr = alloc(launchBlockBytes(t.kernel));
    const table = alloc(Math.max(8, planned[i]!.table.byteLength));
    const size = tl.shape.reduce((a, b) => a * b, 1);
    const w = words();
    w.set(planned[i]!.table, table >>> 2);
    writeLaunchBlock(w, ptr, { total: size, blockSize: Math.max(1, size), partials: 0, segment: Math.max(1, size), segmentLcm: Math.max(1, size) }, tl.shape, tl.arrays);
    writeRandomWords(w, ptr + randomOffset(t.kernel), tl.arrays);
    const field = at + TEMPS.first + TEMPS.stride * i;
    w[(argsPtr + field + TEMPS.args) >>> 2] = ptr;
    w[(argsPtr + field + TEMPS.table) >>> 2] = table;
    w[(argsPtr + field + TEMPS.offset) >>> 2] = offsets[i]!;
    return ptr;
  });
  const w = words();
  w[(argsPtr + at + TEMPS.scratch) >>> 2] = scratch;
  w[(argsPtr + at + TEMPS.perThread) >>> 2] = perThread;
  w[(argsPtr + at + TEMPS.slot) >>> 2] = 0;
  w[(argsPtr + at + TEMPS.slots) >>> 2] = threads;
  return { scratch, tempArgs };
}

export { planTemps, writeTemps };
export type { TempLaunch };
