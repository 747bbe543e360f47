// Model-based test of the execution trace: random programs of creations,
// views, expressions, in-place writes, slice assignments, executes, flushes
// and disposals, run against an eager typed-array model of NumPy's semantics
// (views alias their array; operations make new arrays; an in-place write
// reads all its operands before writing). Every executed value must equal the
// model's bit for bit. A StaleArrayError is allowed only where the model says
// the values read have been overwritten since; it must then change nothing.
// TRACE_RUNS and TRACE_SEED replay or widen it (failures print both).
import { describe, expect, test } from '@jest/globals';
import fc from 'fast-check';
import * as da from '../index.js';
import { StaleArrayError } from '../ir/errors.js';
import { discardPending } from './trace.js';
import type { StdNdarray } from '../util/stdlib.js';

const RUNS = Number(process.env['TRACE_RUNS'] ?? 1000);
const SEED = process.env['TRACE_SEED'] === undefined ? 20261121 : process.env['TRACE_SEED'] === 'random' ? Date.now() : Number(process.env['TRACE_SEED']);

/** An array's memory in the model. `version` counts writes; `deps` are the (array, version) pairs its initial values were computed from. */
interface MBase {
  readonly data: Float64Array;
  readonly shape: readonly number[];
  version: number;
  written: boolean;
  readonly deps: ReadonlyMap<MBase, number>;
}

interface MWindow {
  readonly shape: readonly number[];
  readonly strides: readonly number[];
  readonly offset: number;
}

interface Handle {
  readonly real: da.DeferredArray;
  readonly base: MBase;
  readonly window: MWindow;
  readonly writable: boolean;
}

const size = (s: readonly number[]): number => s.reduce((a, b) => a * b, 1);
const strides = (s: readonly number[]): number[] => s.map((_, i) => size(s.slice(i + 1)));
const whole = (s: readonly number[]): MWindow => ({ shape: [...s], strides: strides(s), offset: 0 });

function* indices(shape: readonly number[]): Generator<number[]> {
  const n = size(shape);
  const idx = shape.map(() => 0);
  for (let i = 0; i < n; i++) {
    yield [...idx];
    for (let a = shape.length - 1; a >= 0; a--) {
      if (++idx[a]! < shape[a]!) break;
      idx[a] = 0;
    }
  }
}

const at = (w: MWindow, idx: readonly number[]): number => idx.reduce((o, v, a) => o + v * w.strides[a]!, w.offset);
const read = (h: Handle): number[] => [...indices(h.window.shape)].map((i) => h.base.data[at(h.window, i)]!);

/** Values of `h` broadcast to `shape` (row-major). */
function readBroadcast(h: Handle | number, shape: readonly number[]): number[] {
  if (typeof h === 'number') return new Array<number>(size(shape)).fill(h);
  const lead = shape.length - h.window.shape.length;
  return [...indices(shape)].map((i) => {
    const own = h.window.shape.map((d, a) => (d === 1 ? 0 : i[a + lead]!));
    return h.base.data[at(h.window, own)]!;
  });
}

/** What a handle's value depends on: its array's current version once written, else the versions its initial values came from. */
const depsOf = (b: MBase): Map<MBase, number> => (b.written ? new Map([[b, b.version]]) : new Map(b.deps));
const mayBeStale = (b: MBase): boolean => [...depsOf(b)].some(([d, v]) => d.version > v);

/** Broadcast shape of two shapes, or undefined. */
function broadcast(a: readonly number[], b: readonly number[]): number[] | undefined {
  const n = Math.max(a.length, b.length);
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const x = a[a.length - n + i] ?? 1;
    const y = b[b.length - n + i] ?? 1;
    if (x !== y && x !== 1 && y !== 1) return undefined;
    out.push(x === 1 ? y : x);
  }
  return out;
}

const OPS = {
  add: (x: number, y: number) => x + y,
  subtract: (x: number, y: number) => x - y,
  multiply: (x: number, y: number) => x * y,
  divide: (x: number, y: number) => x / y,
  maximum: (x: number, y: number) => (Number.isNaN(x) || Number.isNaN(y) ? NaN : Math.max(x, y)),
} as const;
type OpName = keyof typeof OPS;
const IN_PLACE = { assign: (_: number, y: number) => y, iadd: OPS.add, isub: OPS.subtract, imul: OPS.multiply, idiv: OPS.divide } as const;
type InPlace = keyof typeof IN_PLACE;

/** A slice of one axis of length d, from three random numbers. */
function sliceOf(d: number, r: readonly [number, number, number]): { text: string; start: number; len: number; step: number } {
  const step = [1, 1, 2, -1, -2][r[2] % 5]!;
  const start = step > 0 ? r[0] % (d + 1) : d === 0 ? 0 : d - 1 - (r[0] % d);
  const avail = step > 0 ? Math.ceil((d - start) / step) : Math.ceil((start + 1) / -step);
  const len = d === 0 ? 0 : Math.min(avail, r[1] % (avail + 1));
  const stop = start + len * step;
  const stopText = step < 0 && stop < 0 ? '' : String(stop);
  return { text: `${start}:${stopText}:${step}`, start, len, step };
}

type Cmd =
  | { k: 'create'; shape: number; seed: number }
  | { k: 'view'; h: number; kind: number; r: [number, number, number][] }
  | { k: 'expr'; a: number; b: number; op: number; scalar: number }
  | { k: 'inplace'; t: number; v: number; op: number; scalar: number; useScalar: boolean }
  | { k: 'set'; t: number; v: number; r: [number, number, number][]; useScalar: boolean; scalar: number }
  | { k: 'execute'; h: number; sync: boolean }
  | { k: 'flush'; sync: boolean }
  | { k: 'dispose'; h: number };

const SHAPES: ReadonlyArray<readonly number[]> = [[6], [4, 5], [3, 1], [1, 5], [5], [0], []];
const triple = fc.tuple(fc.nat(50), fc.nat(50), fc.nat(50));
const cmd: fc.Arbitrary<Cmd> = fc.oneof(
  { weight: 2, arbitrary: fc.record({ k: fc.constant('create' as const), shape: fc.nat(SHAPES.length - 1), seed: fc.nat(1000) }) },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('view' as const), h: fc.nat(100), kind: fc.nat(3), r: fc.array(triple, { minLength: 2, maxLength: 2 }) }) },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('expr' as const), a: fc.nat(100), b: fc.nat(100), op: fc.nat(4), scalar: fc.integer({ min: -3, max: 3 }) }) },
  {
    weight: 4,
    arbitrary: fc.record({
      k: fc.constant('inplace' as const), t: fc.nat(100), v: fc.nat(100), op: fc.nat(4), scalar: fc.integer({ min: -3, max: 3 }), useScalar: fc.boolean(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      k: fc.constant('set' as const), t: fc.nat(100), v: fc.nat(100), r: fc.array(triple, { minLength: 2, maxLength: 2 }), useScalar: fc.boolean(), scalar: fc.integer({ min: -3, max: 3 }),
    }),
  },
  { weight: 3, arbitrary: fc.record({ k: fc.constant('execute' as const), h: fc.nat(100), sync: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('flush' as const), sync: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('dispose' as const), h: fc.nat(100) }) },
);

const valuesOf = (r: StdNdarray): number[] => [...indices(r.shape)].map((i) => Number(r.get(...i)));
const same = (a: readonly number[], b: readonly number[]): boolean => a.length === b.length && a.every((x, i) => Object.is(x, b[i]));

interface Stats { executes: number; stale: number; writes: number }

/** Runs one program; returns a description of the first divergence, or undefined. */
async function runProgram(cmds: readonly Cmd[], stats: Stats): Promise<string | undefined> {
  const hs: Handle[] = [];
  const pick = (i: number): Handle | undefined => (hs.length ? hs[i % hs.length] : undefined);
  const log: string[] = [];
  for (const c of cmds) {
    log.push(JSON.stringify(c));
    switch (c.k) {
      case 'create': {
        const shape = SHAPES[c.shape]!;
        const data = Float64Array.from({ length: size(shape) }, (_, i) => ((c.seed + i * 7) % 11) - 5);
        const real = shape.length === 0 ? da.array(data[0]!) : da.wrap(data).reshape([...shape]);
        hs.push({ real, base: { data: Float64Array.from(data), shape, version: 0, written: false, deps: new Map() }, window: whole(shape), writable: true });
        break;
      }
      case 'view': {
        const h = pick(c.h);
        if (!h) break;
        const nd = h.window.shape.length;
        if (c.kind === 0 && nd > 0) {
          // A transpose.
          const w = h.window;
          hs.push({ ...h, real: h.real.T, window: { shape: [...w.shape].reverse(), strides: [...w.strides].reverse(), offset: w.offset } });
        } else if (c.kind === 1 && nd > 0) {
          // A broadcast: read-only.
          const shape = [2, ...h.window.shape];
          hs.push({ ...h, real: h.real.broadcastTo(shape), window: { shape, strides: [0, ...h.window.strides], offset: h.window.offset }, writable: false });
        } else if (nd > 0) {
          const parts = h.window.shape.map((d, a) => sliceOf(d, c.r[a % c.r.length]!));
          const window: MWindow = {
            shape: parts.map((p) => p.len),
            strides: parts.map((p, a) => p.step * h.window.strides[a]!),
            offset: parts.some((p) => p.len === 0) ? h.window.offset : parts.reduce((o, p, a) => o + p.start * h.window.strides[a]!, h.window.offset),
          };
          hs.push({ ...h, real: h.real.get(parts.map((p) => p.text).join(', ')), window });
        }
        const made = hs[hs.length - 1]!;
        if (made.real.shape.join() !== made.window.shape.join()) return `${log.join('\n')}\n-> view shape ${made.real.shape} vs model ${made.window.shape}`;
        break;
      }
      case 'expr': {
        const a = pick(c.a);
        if (!a) break;
        const opName = Object.keys(OPS)[c.op % 5] as OpName;
        const b = pick(c.b);
        const useB = b !== undefined && broadcast(a.window.shape, b.window.shape) !== undefined && c.b % 3 !== 0;
        const shape = useB ? broadcast(a.window.shape, b.window.shape)! : [...a.window.shape];
        const x = readBroadcast(a, shape);
        const y = readBroadcast(useB ? b : c.scalar, shape);
        const deps = depsOf(a.base);
        // The oldest version read of each array is the one that can go stale.
        if (useB) for (const [d, v] of depsOf(b.base)) deps.set(d, Math.min(v, deps.get(d) ?? v));
        const real = (a.real[opName] as (o: unknown) => da.DeferredArray)(useB ? b.real : c.scalar);
        hs.push({ real, base: { data: Float64Array.from(x, (v, i) => OPS[opName](v, y[i]!)), shape, version: 0, written: false, deps }, window: whole(shape), writable: true });
        break;
      }
      case 'inplace':
      case 'set': {
        const t = pick(c.t);
        if (!t) break;
        let target = t;
        let index: string | undefined;
        if (c.k === 'set') {
          if (t.window.shape.length === 0) break;
          const parts = t.window.shape.map((d, a) => sliceOf(d, c.r[a % c.r.length]!));
          index = parts.map((p) => p.text).join(', ');
          log[log.length - 1] += ` index ${index}`;
          target = {
            ...t,
            window: {
              shape: parts.map((p) => p.len),
              strides: parts.map((p, a) => p.step * t.window.strides[a]!),
              offset: parts.some((p) => p.len === 0) ? t.window.offset : parts.reduce((o, p, a) => o + p.start * t.window.strides[a]!, t.window.offset),
            },
          };
        }
        const op: InPlace = c.k === 'set' ? 'assign' : (Object.keys(IN_PLACE)[c.op % 5] as InPlace);
        const v = pick(c.v);
        const useV = !c.useScalar && v !== undefined && broadcast(target.window.shape, v.window.shape)?.join() === target.window.shape.join();
        const operand = useV ? v.real : c.scalar;
        const call = (): void => {
          if (index !== undefined) t.real.set(index, operand);
          else (t.real[op] as (o: unknown) => unknown).call(t.real, operand);
        };
        if (!t.writable) {
          expect(call).toThrow(TypeError);
          break;
        }
        const maybeStale = mayBeStale(t.base) || (useV && mayBeStale(v.base));
        try {
          call();
        } catch (e) {
          if (e instanceof StaleArrayError && maybeStale) break;
          const names = new Map<MBase, number>();
          const nm = (b: MBase) => { if (!names.has(b)) names.set(b, names.size); return `m${names.get(b)}`; };
          const dd = (b: MBase) => [...depsOf(b)].map(([d, ver]) => `${nm(d)}@${ver}/now${d.version}`).join(' ');
          return `${log.join('\n')}\n-> ${String(e)}\n t=${nm(t.base)} written=${t.base.written} deps ${dd(t.base)}; v=${useV ? nm(v.base) + ' written=' + v.base.written + ' deps ' + dd(v.base) : 'scalar'}\n t real: ${String(t.real)}\n v real: ${useV ? String(v.real) : ''}`;
        }
        // Read everything first (NumPy's overlap rule), then write.
        const old = read(target);
        const y = readBroadcast(useV ? v : c.scalar, target.window.shape);
        const fn = IN_PLACE[op];
        const out = old.map((x, i) => fn(x, y[i]!));
        [...indices(target.window.shape)].forEach((idx, i) => { t.base.data[at(target.window, idx)] = out[i]!; });
        t.base.version++;
        t.base.written = true;
        stats.writes++;
        break;
      }
      case 'execute': {
        const h = pick(c.h);
        if (!h) break;
        stats.executes++;
        const want = read(h);
        let got: number[];
        try {
          got = valuesOf((c.sync ? h.real.executeSync() : await h.real.execute()) as StdNdarray);
        } catch (e) {
          if (e instanceof StaleArrayError && mayBeStale(h.base)) {
            stats.stale++;
            break;
          }
          return `${log.join('\n')}\n-> ${String(e)}`;
        }
        if (!same(got, want)) return `${log.join('\n')}\n-> got [${got.join(', ')}], model [${want.join(', ')}]`;
        break;
      }
      case 'flush': {
        try {
          if (c.sync) da.flushSync();
          else await da.flush();
        } catch (e) {
          return `${log.join('\n')}\n-> ${String(e)}`;
        }
        if (da.trace().pending !== 0) return `${log.join('\n')}\n-> ${da.trace().pending} computations pending after flush`;
        break;
      }
      case 'dispose': {
        const h = pick(c.h);
        if (!h) break;
        h.real.dispose();
        expect(() => h.real.add(1)).toThrow(da.DisposedError);
        hs.splice(hs.indexOf(h), 1);
        break;
      }
    }
  }
  return undefined;
}

describe('the execution trace against an eager model', () => {
  test(`random programs of 50 commands (${RUNS} runs, seed ${SEED})`, async () => {
    const stats: Stats = { executes: 0, stale: 0, writes: 0 };
    await fc.assert(
      fc.asyncProperty(fc.array(cmd, { minLength: 50, maxLength: 50 }), async (cmds) => {
        // A failed program (while shrinking) may leave computations queued; each starts from an empty trace.
        discardPending();
        const divergence = await runProgram(cmds, stats);
        if (divergence) throw new Error(divergence);
        try {
          await da.flush();
        } catch (e) {
          throw new Error(`${cmds.map((c) => JSON.stringify(c)).join('\n')}\n-> final flush: ${String(e)}`, { cause: e });
        }
      }),
      { numRuns: RUNS, seed: SEED, ...(process.env['TRACE_PATH'] ? { path: process.env['TRACE_PATH'] } : {}) },
    );
    // The property must exercise what it claims to.
    expect(stats.writes).toBeGreaterThan(RUNS * 5);
    expect(stats.executes).toBeGreaterThan(RUNS * 3);
    expect(stats.stale).toBeLessThan(stats.executes / 4);
  }, 600_000);
});
