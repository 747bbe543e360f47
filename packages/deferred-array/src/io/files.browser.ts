// The browser build's files.ts: a page has no file system, so paths are
// refused with what to pass instead, and saves return their bytes.
import { NotSupportedError } from '../ir/errors.js';

const hasFileSystem = false;

const pathOf = (p: string | URL): string => String(p);

function readPath(fn: string, p: string | URL): Promise<Uint8Array> {
  return Promise.reject(new NotSupportedError(
    `${fn}: '${String(p)}' is a path, and a page has no file system; pass the bytes instead: a Response from fetch(), a Blob or File, an ArrayBuffer or a Uint8Array`,
  ));
}

function writePath(fn: string, p: string | URL): Promise<void> {
  return Promise.reject(new NotSupportedError(`${fn}: cannot write '${String(p)}': a page has no file system`));
}

export { hasFileSystem, readPath, writePath, pathOf };
