// The folder this package runs from (dist/, or src/ under ts-jest), for the
// files loaded by path at run time (worker entries, modules workers import).
// It sits at the package's root, so this holds both for the separate files
// tsc emits and for the bundle the build makes of them (dist/index.js).
const packageRoot: string = new URL('./', import.meta.url).href;

export { packageRoot };
