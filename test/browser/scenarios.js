// What the browser suite runs, written once for both sides: the page (bundled
// with deferred-array's browser build) and Node (deferred-array's sources) run
// the same functions, and the suite compares their answers bit for bit. Each
// takes the package as `da` and returns plain JSON: values as the hex of their
// bytes, so that NaN, -0 and the last bit survive the trip.

/** The bytes of a result's values, as hex (row-major, the view's own elements only). */
export function hexOf(nd) {
  const d = nd.data;
  const bytes = new Uint8Array(d.buffer, d.byteOffset, d.byteLength);
  let s = '';
  for (const b of bytes) s += b.toString(16).padStart(2, '0');
  return `${nd.dtype}[${nd.shape.join(',')}]:${s}`;
}

/** The README's and the NEP's examples: foo (printed graph, plan, value) and bar (a marked output). */
export async function nep(da) {
  const degrees = da.wrap(new Float64Array([0, 30, 45, 60, 90]));
  const foo = da.sum(da.square(degrees.mul(Math.PI / 180)));
  const graph = String(foo);
  const plan = foo.explain();
  const value = await foo.execute();
  const arr = da.arange(4).astype('float64');
  const plus1 = arr.add(1).output();
  const { output_0, result } = await plus1.add(1).execute();
  return { graph, plan: plan.split('\n')[0], foo: hexOf(value), output_0: hexOf(output_0), result: hexOf(result) };
}

/** A sample of the API suite: broadcasting, reductions over axes, where, strided slices, casts, in-place writes, joins, products, special values. */
export function api(da) {
  const x = da.wrap(Float64Array.from({ length: 24 }, (_, i) => Math.sin(i) * 10)).reshape([2, 3, 4]);
  const y = da.wrap(Float64Array.from({ length: 4 }, (_, i) => i - 1.5));
  const ints = da.wrap(Int32Array.from({ length: 12 }, (_, i) => (i * 7919) % 23 - 11)).reshape([3, 4]);
  const special = da.wrap(new Float64Array([NaN, Infinity, -Infinity, -0, 0, 5e-324, -1e308, 1e308]));
  const m = da.zeros([3, 4]);
  m.set('::2, 1:', ints.astype('float64').get('::2, 1:').mul(0.5));
  const cases = {
    broadcast: x.mul(y).sub(1),
    sumAxis: da.sum(x, { axis: 1 }),
    meanAll: da.mean(x),
    maxAxis: da.max(x, { axis: [0, 2] }),
    argmax: da.argmax(x.reshape([24])),
    where: da.where(x.gt(0), x, y.mul(-1)),
    strided: x.get('::-1, ::2, 1:'),
    cast: ints.astype('float32').div(3),
    intDiv: ints.floorDivide(3),
    inPlace: m,
    concat: da.concat([ints, ints.mul(2)], { axis: 0 }),
    matmul: da.matmul(x.get(0), x.get(1).transpose()),
    special: special.mul(2).add(special.sqrt()),
    transcendental: da.exp(x.get(0).div(4)).add(da.log(da.abs(x.get(1)).add(1))),
    empty: da.zeros([0, 3]).add(1),
    zeroD: da.sum(da.zeros([0])).add(2),
  };
  const out = {};
  for (const [name, a] of Object.entries(cases)) out[name] = hexOf(a.executeSync());
  return out;
}

/**
 * Compiled calls over ordinary typed arrays, which take the calling thread's private heap where the
 * heap is shared: their bits, and whether that heap was used.
 */
export function compiled(da) {
  const n = 20000;
  const a = Float64Array.from({ length: n }, (_, i) => (i % 13 === 5 ? [NaN, -0, Infinity][i % 3] : Math.sin(i) * 100));
  const b = Float64Array.from({ length: n }, (_, i) => Math.cos(i * 0.7) * 3);
  const ints = Int16Array.from({ length: n }, (_, i) => ((i * 7919) % 4001) - 2000);
  const chain = da.compile((x, y) => x.mul(1.5).add(y).sub(0.25).mul(x).abs().sqrt().add(1), [da.placeholder([n]), da.placeholder([n])]);
  const centred = da.compile((x) => x.sub(da.mean(x)), [da.placeholder([n])]);
  const wrapped = da.compile((x, y) => x.mul(y).add(300), [da.placeholder([n], 'int16'), da.placeholder([n], 'int16')]);
  const out = new Float64Array(n);
  const values = {
    chain: hexOf(chain.sync(a, b)), into: hexOf(chain.sync(a, b, { out })), centred: hexOf(centred.sync(a)), wrapped: hexOf(wrapped.sync(ints, ints)),
  };
  return { values, privateHeap: da.heapStats().privateHeap !== undefined };
}

/** A long chain over 2^21 elements with every kernel on the pool of `threads` workers: its bits, and the blocks each worker ran. */
export async function pool(da, threads) {
  da.configure({ threads, inlineThreshold: 0 });
  const n = 1 << 21;
  const x = da.wrap(Float64Array.from({ length: n }, (_, i) => (i % 1000) / 7 - 50));
  const chain = da.sin(x.mul(0.3)).add(da.cos(x)).mul(x).sub(da.exp(x.div(100)));
  // A first launch starts the pool and lets every worker park: once, on a loaded CI machine, a single
  // worker ran all 128 blocks of a launch made right after the pool started. Blocks count over both launches.
  await da.sum(x).execute();
  const before = da.stats().workerBlocks.reduce((s, b) => s + b, 0);
  const [total, values] = await da.execute([da.sum(chain), chain.get('::4099')]);
  const blocks = da.stats().workerBlocks;
  // Scans on the pool: a line of 2^21 (groups of four blocks look back for their starts) and
  // axis 0 of a 2048 x 1024 matrix (a lane per column); their bits do not depend on the workers.
  const line = await da.cumsum(chain).execute();
  const columns = await da.cumsum(x.reshape([2048, 1024]).mul(0.5), { axis: 0 }).execute();
  await da.shutdown();
  return {
    total: hexOf(total), values: hexOf(values), blocks, ran: blocks.reduce((s, b) => s + b, 0) - before,
    scans: [line, columns].map((r) => hexOf({ dtype: 'float64', shape: [512], data: Float64Array.from({ length: 512 }, (_, i) => r.data[i * 4099]) })).join(' '),
  };
}

/**
 * The heap given back (after an idle time, then at shutdown()) with the pool
 * of `threads` workers: the chain's bits before and after each trim, whether
 * the same workers ran the run after the idle trim (blocks counted since the
 * pool started go on growing: they were sent the new memory, not restarted),
 * and the heap's size and trims.
 */
export async function trim(da, threads) {
  da.configure({ threads, inlineThreshold: 0, trimAfterIdleMs: 50 });
  const x = da.wrap(Float64Array.from({ length: 1 << 21 }, (_, i) => (i % 1000) / 7 - 50));
  // Every 997th value: the whole result's hex would be 32 MB of text.
  const sample = (r) => hexOf({ dtype: 'float64', shape: [2104], data: Float64Array.from({ length: 2104 }, (_, i) => r.data[i * 997]) });
  const run = async () => sample(await da.sin(x.mul(0.3)).mul(x).add(1).execute());
  const blocks = () => da.stats().workerBlocks.reduce((s, b) => s + b, 0);
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  const first = da.heapStats().shrinks;
  const shrinks = () => da.heapStats().shrinks - first;
  const before = await run();
  const grown = da.heapStats().heapBytes;
  const ran = blocks();
  for (let i = 0; i < 100 && shrinks() === 0; i++) await sleep(20);
  const idle = { shrinks: shrinks(), heapBytes: da.heapStats().heapBytes };
  const afterIdle = await run();
  const rebound = blocks() > ran;
  await da.shutdown();
  const down = { shrinks: shrinks(), heapBytes: da.heapStats().heapBytes };
  const afterShutdown = await run();
  da.configure({ trimAfterIdleMs: 5000 });
  await da.shutdown();
  return { before, afterIdle, afterShutdown, grown: grown > idle.heapBytes, idle, down, rebound };
}

/**
 * A worker that fails mid-kernel (its host function for int32 power throws on 13 or traps on
 * 19: the fault host the page points the pool at; the exponent is an array, since a constant
 * one becomes multiplies): execute() rejects with a WorkerError, and the next executes give
 * the right answer.
 */
export async function fault(da, cue) {
  da.configure({ threads: 2, inlineThreshold: 0 });
  const n = 200_000;
  const good = Float64Array.from({ length: n }, (_, i) => (i % 7) + 0.5);
  const bad = Float64Array.from(good);
  bad[150_000] = cue;
  const twos = da.wrap(new Int32Array(n).fill(2));
  const graph = (data) => da.wrap(data).astype('int32').power(twos).astype('float64').add(1).sum();
  const want = hexOf(graph(good).executeSync());
  const error = await graph(bad).execute().then(() => undefined, (e) => e);
  const after = [];
  for (let i = 0; i < 5; i++) after.push(hexOf(await graph(good).execute()));
  await da.shutdown();
  return {
    name: error?.name, code: error?.code, message: String(error?.message),
    recovered: after.every((h) => h === want),
  };
}

/**
 * NumPy's files: an .npy (big-endian, Fortran order) and an .npz read from a
 * Response (`source(name)`: fetched in the page, made from the fixture's
 * bytes in Node), and saved again as bytes: the page has no file system, so
 * a path target gives the bytes too.
 */
export async function npy(da, source) {
  const get = typeof source === 'string' ? (name) => fetch(`${source}${name}`) : source;
  const x = await da.load(await get('float64-be-f.npy'));
  const z = await da.load(await get('pair-compressed.npz'));
  const saved = await da.save(null, x.mul(2));
  const archive = await da.load(await da.savez(null, { a: z.a, c: z.c }));
  const bytesHex = (b) => Array.from(b, (v) => v.toString(16).padStart(2, '0')).join('');
  return {
    x: hexOf(x.executeSync()),
    members: z.files.map((m) => hexOf(z.get(m).executeSync())),
    saved: bytesHex(saved),
    roundTrip: archive.files.map((m) => hexOf(archive.get(m).executeSync())),
    pathGivesBytes: typeof window === 'undefined' ? 'node' : (await da.save('x.npy', x)) instanceof Uint8Array,
  };
}

/** Zarr stores read through zarrita: in the page over HTTP (`base` a URL), in Node from the folder (`base` a path). */
export async function zarr(da, base) {
  const out = {};
  for (const [store, path] of [['v2.zarr', 'blosc'], ['v2.zarr', 'zstd'], ['v2.zarr', 'int16-f'], ['v3.zarr', '']]) {
    const x = await da.fromZarr(`${base}${store}`, path);
    out[`${store}/${path}`] = hexOf(await x.execute());
  }
  return out;
}

/**
 * Sorting, selection and linear algebra, which run in kernels-wasm's routines, a chunk a page loads on
 * the first run that needs it: executeSync() before it has loaded (those steps then run in the reference
 * evaluator), execute() (which waits for it) and executeSync() after, each as hex.
 */
export async function routines(da) {
  const x = da.wrap(Float64Array.from({ length: 300 }, (_, i) => (i % 37 === 0 ? NaN : Math.sin(i * 7.3) * 100))).reshape([3, 100]);
  const a = da.wrap(Float64Array.from({ length: 36 }, (_, i) => Math.cos(i * 1.7) + (i % 7 === 0 ? 6 : 0))).reshape([6, 6]);
  const b = da.wrap(Float64Array.from({ length: 6 }, (_, i) => i - 2.5));
  const make = () => ({
    sort: da.sort(x, { axis: -1 }),
    argsort: da.argsort(x.get(1)),
    median: da.median(x, { axis: 1 }),
    solve: da.linalg.solve(a, b),
    eigh: da.linalg.eigh(a.add(a.T))[0],
    qr: da.linalg.qr(a)[1],
    counts: da.bincount(da.wrap(Int32Array.from({ length: 50 }, (_, i) => (i * 13) % 9))),
  });
  const first = {};
  for (const [k, v] of Object.entries(make())) first[k] = hexOf(v.executeSync());
  const pooled = {};
  for (const [k, v] of Object.entries(make())) pooled[k] = hexOf(await v.execute());
  const after = {};
  for (const [k, v] of Object.entries(make())) after[k] = hexOf(v.executeSync());
  return { first, pooled, after };
}
