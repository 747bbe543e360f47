// Where the worker entry files are. Workers run real JavaScript, so when this
// package runs from its TypeScript sources (ts-jest), the entries come from
// the build next to them (dist/), which `npm test` makes first.
function workerUrl(name: string, base: string): URL {
  const fromSources = base.endsWith('.ts');
  const url = new URL(`./${name}.${fromSources ? 'ts' : 'js'}`, base);
  if (!fromSources) return url;
  return new URL(url.href.replace(/\/src\/(?!.*\/src\/)/, '/dist/').replace(/\.ts$/, '.js'));
}

export { workerUrl };
