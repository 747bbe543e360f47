// Options objects as the API takes them ({ axis, keepdims }, { ddof }, ...):
// an object whose every key is one the function knows.

/** `options` as an object of the keys `keys` (an empty one when undefined); a TypeError naming what was wrong otherwise. */
function checkOptionKeys<T extends object>(fn: string, options: unknown, keys: readonly string[]): Partial<T> {
  if (options === undefined) return {};
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new TypeError(`${fn}: options must be an object like { ${keys.join(', ')} }; got ${String(options)}`);
  }
  for (const key of Object.keys(options)) {
    if (!keys.includes(key)) throw new TypeError(`${fn}: unknown option '${key}' (expected ${keys.join(', ')})`);
  }
  return options as Partial<T>;
}

export { checkOptionKeys };
