// How error messages print what a user passed. JSON.stringify would print
// NaN and Infinity as null and -0 as 0, and skip undefined: the very values
// that are usually the mistake. Numbers print as they are, strings quoted,
// arrays and plain objects element by element (a hole as such), and anything
// else by its kind.

/** Elements printed of a long array before the rest is elided. */
const MAX_ITEMS = 16;

/** An object's class, as errors name it: a bundler may rename a class (_DeferredArray); arrays say their dtype and shape. */
function objectName(x: object): string {
  const name = (x.constructor?.name ?? 'object').replace(/^_+(?=[A-Z])/, '');
  const { dtype, shape } = x as { dtype?: unknown; shape?: unknown };
  // As shape.ts prints shapes ((3,) for one axis); that module imports this one.
  const text = Array.isArray(shape) ? (shape.length === 1 ? `(${String(shape[0])},)` : `(${shape.join(', ')})`) : '';
  return typeof dtype === 'string' && Array.isArray(shape) ? `${name} of ${dtype}, shape ${text}` : name;
}

function formatValue(x: unknown, depth = 0): string {
  switch (typeof x) {
    case 'number': return Object.is(x, -0) ? '-0' : String(x);
    case 'string': return JSON.stringify(x);
    case 'bigint': return `${x}n`;
    case 'boolean': case 'undefined': case 'symbol': return String(x);
    case 'function': return `function ${x.name || '(anonymous)'}`;
    default: break;
  }
  if (x === null) return 'null';
  if (depth >= 3) return Array.isArray(x) ? '[…]' : '{…}';
  if (Array.isArray(x)) {
    const items: string[] = [];
    for (let i = 0; i < Math.min(x.length, MAX_ITEMS); i++) items.push(i in x ? formatValue(x[i], depth + 1) : '<hole>');
    if (x.length > MAX_ITEMS) items.push(`… ${x.length - MAX_ITEMS} more`);
    return `[${items.join(', ')}]`;
  }
  if (ArrayBuffer.isView(x)) return `${x.constructor.name}(${(x as unknown as ArrayLike<unknown>).length ?? x.byteLength})`;
  const proto: unknown = Object.getPrototypeOf(x);
  if (proto === Object.prototype || proto === null) {
    const entries = Object.entries(x as object);
    const shown = entries.slice(0, MAX_ITEMS).map(([k, v]) => `${/^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k)}: ${formatValue(v, depth + 1)}`);
    if (entries.length > MAX_ITEMS) shown.push(`… ${entries.length - MAX_ITEMS} more`);
    return shown.length ? `{ ${shown.join(', ')} }` : '{}';
  }
  return objectName(x as object);
}

export { formatValue, objectName };
