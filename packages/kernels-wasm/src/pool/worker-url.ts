// Where the files workers load are: `path` (e.g. 'pool/piscina-worker')
// under a package's root (see package-root.ts). Workers run real JavaScript,
// so when a package runs from its TypeScript sources (ts-jest), the files
// come from the build beside them (dist/), which `npm test` makes first.
function workerUrl(path: string, root: string, extension: 'js' | 'cjs' = 'js'): URL {
  return new URL(`./${path}.${extension}`, root.replace(/\/src\/$/, '/dist/'));
}

export { workerUrl };
