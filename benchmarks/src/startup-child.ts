// The first result, timed from a fresh process: importing the package, then
// the first executeSync() of a small graph (everything it loads on first use
// included). Prints one line of JSON for startup.ts.
const t0 = performance.now();
const da = await import('deferred-array');
const t1 = performance.now();
const r = da.sum(da.wrap(new Float64Array(1000).fill(0.5)).mul(2)).executeSync() as { get(): number };
const t2 = performance.now();
console.log(JSON.stringify({ importMs: t1 - t0, firstMs: t2 - t1, value: r.get() }));
