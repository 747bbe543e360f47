// The demo page: the NEP example with its printed graph and plan, and a live benchmark of a
// fused chain against a JS loop, plotted, with the worker count. Bundled by serve.mjs.
import * as da from 'deferred-array';

const $ = (id) => document.getElementById(id);

function env() {
  const isolated = globalThis.crossOriginIsolated === true;
  const { threads } = da.configure();
  $('env').innerHTML = [
    `<span class="${isolated ? 'ok' : 'warn'}">cross-origin isolated: ${isolated ? 'yes (shared heap, worker pool)' : 'no (calling thread only)'}</span>`,
    `<span>cores: ${navigator.hardwareConcurrency}</span>`,
    `<span>workers: ${isolated ? threads : 0}</span>`,
  ].join('');
}

async function nep() {
  const degrees = da.wrap(new Float64Array([0, 30, 45, 60, 90]));
  const foo = da.sum(da.square(degrees.mul(Math.PI / 180)));
  $('graph').textContent = String(foo);
  $('plan').textContent = foo.explain();
  const value = await foo.execute();
  $('value').textContent = `value: ${value.get()}`;
}

function jsLoop(x) {
  let s = 0;
  for (let i = 0; i < x.length; i++) { const v = x[i]; s += Math.sin(v * 0.3) + Math.cos(v) * v - Math.exp(v / 100); }
  return s;
}

async function best(f, rounds) {
  let t = Infinity;
  for (let r = 0; r < rounds; r++) {
    const t0 = performance.now();
    await f();
    t = Math.min(t, performance.now() - t0);
  }
  return t;
}

async function bench() {
  const rows = [];
  for (let e = 12; e <= 22; e += 2) {
    const n = 2 ** e;
    const data = Float64Array.from({ length: n }, (_, i) => (i % 1000) / 7 - 50);
    const x = da.wrap(data);
    const chain = da.sum(da.sin(x.mul(0.3)).add(da.cos(x).mul(x)).sub(da.exp(x.div(100))));
    const rounds = e <= 16 ? 9 : 5;
    await chain.execute();
    const ours = await best(() => chain.execute(), rounds);
    const js = await best(() => jsLoop(data), rounds);
    rows.push({ n, ours, js });
    draw(rows);
  }
  const blocks = da.stats().workerBlocks;
  $('status').textContent = `done. blocks each worker ran: ${blocks.length ? blocks.join(', ') : 'none (no pool)'}`;
  window.demoDone = true;
}

function draw(rows) {
  const W = 640, H = 320, L = 60, B = 40, T = 30, R = 120;
  const ys = rows.flatMap((r) => [r.ours, r.js].map((t) => (t * 1e6) / r.n));
  const x0 = 12, x1 = 22, y1 = Math.max(...ys) * 1.1;
  const px = (v) => L + ((v - x0) / (x1 - x0)) * (W - L - R);
  const py = (v) => T + (1 - v / y1) * (H - T - B);
  const line = (key, color, label) => {
    const pts = rows.map((r) => `${px(Math.log2(r.n)).toFixed(1)},${py((r[key] * 1e6) / r.n).toFixed(1)}`).join(' ');
    const last = rows[rows.length - 1];
    return `<polyline fill="none" stroke="${color}" stroke-width="2.5" points="${pts}"/>` +
      rows.map((r) => `<circle cx="${px(Math.log2(r.n))}" cy="${py((r[key] * 1e6) / r.n)}" r="3.5" fill="${color}"/>`).join('') +
      `<text x="${px(Math.log2(last.n)) + 8}" y="${py((last[key] * 1e6) / last.n) + 4}" fill="${color}" font-size="13">${label}</text>`;
  };
  const ticksX = [12, 14, 16, 18, 20, 22].map((e) => `<text x="${px(e)}" y="${H - B + 18}" text-anchor="middle" font-size="12">2^${e}</text>`).join('');
  const ticksY = [0, 0.25, 0.5, 0.75, 1].map((f) => {
    const v = f * y1;
    return `<line x1="${L}" x2="${W - R}" y1="${py(v)}" y2="${py(v)}" stroke="#e4e4e4"/><text x="${L - 6}" y="${py(v) + 4}" text-anchor="end" font-size="12">${v.toFixed(1)}</text>`;
  }).join('');
  $('plot').innerHTML = `<svg width="${W}" height="${H}" role="img" aria-label="ns per element against n">${ticksY}${ticksX}` +
    `<text x="${L}" y="${H - 4}" font-size="12">n (elements)</text><text x="4" y="14" font-size="12">ns/element</text>` +
    line('js', '#c0392b', 'JS loop') + line('ours', '#1f6fb2', 'deferred-array') + '</svg>';
  $('table').innerHTML = '<tr><th>n</th><th>deferred-array</th><th>JS loop</th><th>speed-up</th></tr>' +
    rows.map((r) => `<tr><td>2^${Math.log2(r.n)}</td><td>${r.ours.toFixed(3)} ms</td><td>${r.js.toFixed(3)} ms</td><td>${(r.js / r.ours).toFixed(1)}x</td></tr>`).join('');
}

env();
await nep();
await bench();
