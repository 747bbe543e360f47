// The two examples of NumPy's deferred-execution NEP, printed step by step.
import * as da from 'deferred-array';

function show(title: string, body: string): void {
  console.log(`\n## ${title}\n${body.replace(/^/gm, '  ')}`);
}

async function nepDemo(): Promise<void> {
  // foo: degrees to radians, then the sum of squares.
  const degrees = da.array([0, 30, 45, 60, 90, 180]);
  const foo = da.sum(da.square(da.multiply(degrees, Math.PI / 180)));
  const before = da.stats().runs;
  show('foo = sum(square(degrees * pi/180)), as built (nothing computed yet)', String(foo));
  show('foo.explain()', foo.explain());
  const value = (await foo.execute()) as da.StdNdarray;
  show('await foo.execute()', `${String(value.get())}   (backend runs: ${before} before printing, ${da.stats().runs} after executing)`);

  // bar: an intermediate marked with output() comes back beside the result.
  const arr = da.arange(5).astype('float64');
  const plus1 = arr.add(1).output();
  const plus2 = plus1.add(1);
  show('bar: plus1 = arr + 1 marked with output(); plus2 = plus1 + 1', String(plus2));
  show('plus2.explain(): one kernel writes both the marked output and the result', plus2.explain());
  const record = (await plus2.execute()) as da.OutputRecord;
  const fmt = (x: unknown): string => `[${Array.from((x as da.StdNdarray).data as Float64Array).join(', ')}]`;
  show('await plus2.execute()', `{ output_0: ${fmt(record['output_0'])}, result: ${fmt(record['result'])} }`);

  // Shape errors surface when the graph is built, not at execute().
  try {
    da.add(da.zeros([2, 3]), da.zeros([4]));
  } catch (e) {
    show('a shape error, raised at definition', `${(e as Error).name}: ${(e as Error).message}`);
  }
  show('plus2.toDot() (Graphviz)', plus2.toDot());

  // How results leave: an ordinary copy (above), a heap view inside a scope, or into an array you own.
  const shared = (x: da.StdNdarray): string => ((x.data as Float64Array).buffer instanceof SharedArrayBuffer ? 'a view of the heap' : 'ordinary memory');
  const sum = da.scopeSync(() => {
    const r = plus2.executeSync() as da.OutputRecord;
    const view = r['result'] as da.StdNdarray;
    return `${fmt(view)} is ${shared(view)}; ${da.heapStats().views} view(s) held inside the scope`;
  });
  const out = new Float64Array(5);
  plus2.add(10).executeSync({ out: { result: out } });
  show('results without copies', [
    `da.scopeSync(() => plus2.executeSync()): ${sum}, ${da.heapStats().views} after it`,
    `plus2.add(10).executeSync({ out: { result: out } }) wrote [${Array.from(out).join(', ')}] into a Float64Array you own`,
  ].join('\n'));
}

export { nepDemo };
