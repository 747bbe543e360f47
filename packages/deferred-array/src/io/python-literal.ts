// The Python literals an .npy header is written in (repr of a dict of
// strings, booleans, integers, tuples and, for structured dtypes, lists):
// parsed as ast.literal_eval would for those, and written as repr writes them.

/** A Python value: dict (string keys), list, tuple, str, int, bool or None. */
type PyValue = string | number | boolean | null | readonly PyValue[] | PyTuple | ReadonlyMap<string, PyValue>;
interface PyTuple {
  readonly tuple: true;
  readonly items: readonly PyValue[];
}

const isSpace = (c: string | undefined): boolean => c === ' ' || c === '\t' || c === '\n' || c === '\r';

/** The literal `text` holds (surrounding space allowed); throws an Error saying where it stopped making sense. */
function parsePythonLiteral(text: string): PyValue {
  let at = 0;
  const fail = (what: string): never => {
    throw new Error(`${what} at character ${at}`);
  };
  const skip = (): void => {
    while (isSpace(text[at])) at++;
  };
  const expect = (c: string): void => {
    skip();
    if (text[at] !== c) fail(`expected '${c}'`);
    at++;
  };
  /** Items up to `close`, a trailing comma allowed; for a tuple, whether a comma was seen (so (1) is not a tuple). */
  const items = (close: string, item: () => void): boolean => {
    let comma = false;
    for (;;) {
      skip();
      if (text[at] === close) {
        at++;
        return comma;
      }
      item();
      skip();
      if (text[at] === ',') {
        comma = true;
        at++;
      } else if (text[at] !== close) {
        fail(`expected ',' or '${close}'`);
      }
    }
  };
  const value = (): PyValue => {
    skip();
    const c = text[at];
    if (c === '{') {
      at++;
      const dict = new Map<string, PyValue>();
      items('}', () => {
        const key = value();
        if (typeof key !== 'string') fail('a dict key that is not a string');
        expect(':');
        dict.set(key as string, value());
      });
      return dict;
    }
    if (c === '[') {
      at++;
      const list: PyValue[] = [];
      items(']', () => list.push(value()));
      return list;
    }
    if (c === '(') {
      at++;
      const list: PyValue[] = [];
      const comma = items(')', () => list.push(value()));
      // (x) is x; (), (x,) and (x, y) are tuples.
      return list.length === 1 && !comma ? list[0]! : { tuple: true, items: list };
    }
    if (c === "'" || c === '"') return str(c);
    const word = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(at))?.[0];
    if (word) {
      at += word.length;
      if (word === 'True') return true;
      if (word === 'False') return false;
      if (word === 'None') return null;
      return fail(`'${word}' is not a literal`);
    }
    // Integers, with the L of Python 2 (NumPy 1.x on Python 2 wrote shapes as (3L,)).
    const digits = /^[+-]?\d+L?/.exec(text.slice(at))?.[0];
    if (digits) {
      at += digits.length;
      const n = Number(digits.replace('L', ''));
      if (!Number.isSafeInteger(n)) fail(`integer ${digits} is too large`);
      return n;
    }
    return fail(c === undefined ? 'the text ends' : `unexpected '${c}'`);
  };
  const str = (quote: string): string => {
    at++;
    let s = '';
    for (;;) {
      const c = text[at++];
      if (c === undefined) return fail('an unterminated string');
      if (c === quote) return s;
      if (c !== '\\') {
        s += c;
        continue;
      }
      const e = text[at++];
      const simple: Record<string, string> = { '\\': '\\', "'": "'", '"': '"', n: '\n', t: '\t', r: '\r', '0': '\0' };
      if (e !== undefined && e in simple) s += simple[e];
      else if (e === 'x' || e === 'u') {
        const hex = text.slice(at, at + (e === 'x' ? 2 : 4));
        if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== (e === 'x' ? 2 : 4)) fail('a bad escape');
        s += String.fromCharCode(parseInt(hex, 16));
        at += hex.length;
      } else fail('an escape that is not supported');
    }
  };
  const v = value();
  skip();
  if (at !== text.length) fail('text after the literal');
  return v;
}

/** repr() of a str (NumPy's descr strings are ASCII without quotes), an int, a bool or a tuple of them. */
function pythonRepr(v: string | number | boolean | PyTuple): string {
  if (typeof v === 'string') return `'${v.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  if (typeof v === 'number') return String(v);
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  const items = v.items.map((x) => pythonRepr(x as string | number | boolean | PyTuple));
  return items.length === 1 ? `(${items[0]},)` : `(${items.join(', ')})`;
}

export { parsePythonLiteral, pythonRepr };
export type { PyValue, PyTuple };
