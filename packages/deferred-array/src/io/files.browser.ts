// The browser build's files.ts: a page has no file system, so paths are
// refused with what to pass instead, and saves return their bytes.
import { NotSupportedError } from '../ir/errors.js';
import type { ZarrStore } from './zarr.js';

const hasFileSystem = false;

const pathOf = (p: string | URL): string => String(p);

function readPath(fn: string, p: string | URL): Promise<Uint8Array> {
  return Promise.reject(new NotSupportedError(
    `${fn}: '${String(p)}' is a path, and a page has no file system; pass the bytes instead: a Response from fetch(), a Blob or File, an ArrayBuffer or a Uint8Array`,
  ));
}

function writePath(fn: string, p: string | URL, _parts: readonly Uint8Array[]): Promise<void> {
  return Promise.reject(new NotSupportedError(`${fn}: cannot write '${String(p)}': a page has no file system`));
}

/** The Zarr store at `location`, fetched: a page reads stores over HTTP (a relative location is resolved against the page). */
async function zarrStoreAt(fn: string, location: string | URL): Promise<ZarrStore> {
  const base = (globalThis as { location?: { href: string } }).location?.href;
  let url: URL;
  try {
    url = new URL(String(location), base);
  } catch {
    throw new NotSupportedError(`${fn}: '${String(location)}' is not a URL, and a page has no file system to find a folder in`);
  }
  const { default: FetchStore } = await import('@zarrita/storage/fetch');
  return new FetchStore(url.href);
}

interface FileIdentity {
  readonly dev: number;
  readonly ino: number;
  readonly size: number;
  readonly mtimeMs: number;
}
interface RangeReader {
  read(into: Uint8Array, position: number): Promise<void>;
  close(): Promise<void>;
}
interface PartWriter {
  write(bytes: Uint8Array, position: number): Promise<void>;
  commit(): Promise<void>;
  abandon(): Promise<void>;
}

const noFiles = (fn: string, what: string): Promise<never> =>
  Promise.reject(new NotSupportedError(`${fn}: ${what} needs a file system, and a page has none`));

const readHead = (fn: string): Promise<never> => noFiles(fn, 'mmapMode');
const openRanges = (fn: string): Promise<RangeReader> => noFiles(fn, 'a streamed run');
const openParts = (fn: string): Promise<PartWriter> => noFiles(fn, 'a streamed save');

export { hasFileSystem, readPath, writePath, pathOf, zarrStoreAt, readHead, openRanges, openParts };
export type { RangeReader, PartWriter, FileIdentity };
