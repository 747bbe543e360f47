// A broken invariant inside kernels-wasm (a spec that passed validation but
// names a value, array or slot that is not there): never the caller's fault,
// so it is a plain Error with a message that says which lookup failed.

class InternalError extends Error {
  constructor(message: string) {
    super(`internal: ${message}`);
    this.name = 'InternalError';
  }
}

/** list[index], or an InternalError naming `what` when the index is out of range. */
function at<T>(list: ArrayLike<T>, index: number, what = 'entry'): T {
  const x = list[index];
  if (x === undefined) throw new InternalError(`no ${what} ${index} (of ${list.length})`);
  return x;
}

export { InternalError, at };
