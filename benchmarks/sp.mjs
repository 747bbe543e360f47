import * as da from 'deferred-array';
const n = 1 << 23;
const x = new Float64Array(n); for (let i = 0; i < n; i++) x[i] = Math.random() * 2 - 1;
const X = da.wrap(x);
for (let r = 0; r < 4; r++) { const t = performance.now(); da.sort(X).executeSync(); console.log('sort', (performance.now() - t).toFixed(0)); }
