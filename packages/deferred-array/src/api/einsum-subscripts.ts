// NumPy's einsum subscripts, as one label list per operand and one for the
// output. Labels are letters; the axes an ellipsis covers get labels of their
// own ('…0', '…1', …, right-aligned across operands), so broadcasting them is
// the same rule as broadcasting a letter of length 1.
import { ShapeError } from '../ir/errors.js';
import { describe } from '../core/values.js';

interface Subscripts {
  /** Each operand's label per axis, in axis order. */
  readonly inputs: readonly (readonly string[])[];
  readonly output: readonly string[];
}

/** One operand's (or the output's) subscripts as written: letters, with '...' at most once. */
interface Written {
  readonly letters: readonly string[];
  /** Where '...' stands among the letters; -1 without one. */
  readonly ellipsis: number;
}

const ELLIPSIS = '...';
const LETTER = /^[A-Za-z]$/;

/** The label of ellipsis axis k of `count` (the broadcast axes, right-aligned). */
const ellipsisLabel = (k: number): string => `…${k}`;

function parseTerm(text: string, what: string, whole: string): Written {
  const letters: string[] = [];
  let ellipsis = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === ' ') continue;
    if (c === '.') {
      if (text.slice(i, i + 3) !== ELLIPSIS) {
        throw new TypeError(`einsum: ${what} in ${JSON.stringify(whole)} has a '.' that is not part of an ellipsis ('...')`);
      }
      if (ellipsis >= 0) throw new TypeError(`einsum: ${what} in ${JSON.stringify(whole)} has more than one ellipsis ('...')`);
      ellipsis = letters.length;
      i += 2;
      continue;
    }
    if (!LETTER.test(c)) {
      throw new TypeError(
        `einsum: ${what} in ${JSON.stringify(whole)} has ${JSON.stringify(c)}; subscripts are letters (a-z, A-Z), ` +
        `'...', ',' between operands and one '->' before the output`,
      );
    }
    letters.push(c);
  }
  return { letters, ellipsis };
}

/** Parses 'ij,jk->ik' (output optional) into the terms as written. */
function parseString(subscripts: string, operands: number): { inputs: Written[]; output: Written | undefined } {
  const arrow = subscripts.indexOf('->');
  const left = arrow < 0 ? subscripts : subscripts.slice(0, arrow);
  const right = arrow < 0 ? undefined : subscripts.slice(arrow + 2);
  if (right?.includes('->')) {
    throw new TypeError(`einsum: ${JSON.stringify(subscripts)} has more than one '->'; one separates the inputs from the output`);
  }
  const terms = left.split(',');
  if (terms.length !== operands) {
    throw new TypeError(
      `einsum: ${JSON.stringify(subscripts)} names ${terms.length} operand${terms.length === 1 ? '' : 's'} ` +
      `but ${operands} ${operands === 1 ? 'was' : 'were'} given; give one comma-separated term per operand`,
    );
  }
  return {
    inputs: terms.map((t, i) => parseTerm(t, `the subscripts of operand ${i}`, subscripts)),
    output: right === undefined ? undefined : parseTerm(right, 'the output', subscripts),
  };
}

/** NumPy's sublist labels: 0-25 are 'A'-'Z' and 26-51 are 'a'-'z'; '...' is the ellipsis. */
function parseSublist(list: unknown, what: string): Written {
  if (!Array.isArray(list)) throw new TypeError(`einsum: ${what} must be a list of integers in [0, 52) and '...'; got ${describe(list)}`);
  const letters: string[] = [];
  let ellipsis = -1;
  for (const s of list as unknown[]) {
    if (s === ELLIPSIS) {
      if (ellipsis >= 0) throw new TypeError(`einsum: ${what} has more than one '...'`);
      ellipsis = letters.length;
    } else if (typeof s === 'number' && Number.isInteger(s) && s >= 0 && s < 52) {
      letters.push(String.fromCharCode(s < 26 ? 65 + s : 97 + s - 26));
    } else {
      throw new TypeError(`einsum: ${what} holds ${describe(s)}; a sublist holds integers in [0, 52) and '...'`);
    }
  }
  return { letters, ellipsis };
}

/**
 * The labels of every axis: each operand's letters, its ellipsis axes
 * labelled by position from the right, and the output (implicit: the
 * ellipsis axes, then the letters used once, in code-point order, as NumPy).
 */
function resolveLabels(inputs: readonly Written[], output: Written | undefined, ndims: readonly number[], text: string): Subscripts {
  let broadcast = 0;
  const labelled = inputs.map((w, i) => {
    const ndim = ndims[i]!;
    const extra = ndim - w.letters.length;
    if (extra < 0 || (extra > 0 && w.ellipsis < 0)) {
      throw new ShapeError(
        `einsum: operand ${i} has ${ndim} ax${ndim === 1 ? 'is' : 'es'} but its subscripts in ${JSON.stringify(text)} ` +
        `name ${w.letters.length}${extra > 0 ? "; add '...' to cover the others" : '; give one letter per axis'}`,
      );
    }
    broadcast = Math.max(broadcast, extra);
    return { w, extra };
  });
  const fill = (count: number): string[] => Array.from({ length: count }, (_, k) => ellipsisLabel(broadcast - count + k));
  const withEllipsis = (w: Written, count: number): string[] =>
    w.ellipsis < 0 ? [...w.letters] : [...w.letters.slice(0, w.ellipsis), ...fill(count), ...w.letters.slice(w.ellipsis)];
  const inputLabels = labelled.map(({ w, extra }) => withEllipsis(w, extra));
  const counts = new Map<string, number>();
  for (const w of inputs) for (const c of w.letters) counts.set(c, (counts.get(c) ?? 0) + 1);
  if (output === undefined) {
    const once = [...counts].filter(([, n]) => n === 1).map(([c]) => c).sort();
    return { inputs: inputLabels, output: [...fill(broadcast), ...once] };
  }
  const seen = new Set<string>();
  for (const c of output.letters) {
    if (seen.has(c)) throw new TypeError(`einsum: the output of ${JSON.stringify(text)} names '${c}' twice; an output label appears once`);
    if (!counts.has(c)) throw new TypeError(`einsum: the output of ${JSON.stringify(text)} names '${c}', which no input has`);
    seen.add(c);
  }
  if (output.ellipsis < 0 && broadcast > 0) {
    throw new ShapeError(
      `einsum: the inputs of ${JSON.stringify(text)} have ${broadcast} ax${broadcast === 1 ? 'is' : 'es'} under '...' ` +
      "but the output has no '...'; write '...' in the output where they go (or sum them afterwards)",
    );
  }
  return { inputs: inputLabels, output: withEllipsis(output, broadcast) };
}

/**
 * The subscripts of an einsum call, from its string form (`'ij,jk->ik'`,
 * operands after it) or its interleaved form (operand, sublist, operand,
 * sublist, …, output sublist optional). Returns the operands as given and
 * the subscripts as text (for messages), before their ndims are known.
 */
function splitArguments(args: readonly unknown[]): { operands: unknown[]; inputs: Written[]; output: Written | undefined; text: string } {
  if (args.length === 0) throw new TypeError("einsum: give the subscripts and the operands, as einsum('ij,jk->ik', a, b)");
  const [first, ...rest] = args;
  if (typeof first === 'string') {
    if (rest.length === 0) throw new TypeError(`einsum: ${JSON.stringify(first)} is given no operands`);
    return { operands: rest, ...parseString(first, rest.length), text: first };
  }
  const operands: unknown[] = [];
  const inputs: Written[] = [];
  for (let i = 0; i + 1 < args.length; i += 2) {
    operands.push(args[i]);
    inputs.push(parseSublist(args[i + 1], `the sublist of operand ${operands.length - 1}`));
  }
  if (operands.length === 0) {
    throw new TypeError(`einsum: the first argument is the subscripts string or an operand followed by its sublist; got ${describe(first)} alone`);
  }
  const last = args[args.length - 1];
  if (args.length % 2 === 1 && !Array.isArray(last)) {
    throw new TypeError(
      `einsum: operand ${operands.length} has no sublist after it (got ${describe(last)} last); the interleaved form is ` +
      'einsum(a, [0, 1], b, [1, 2], [0, 2]), each operand followed by its sublist, the output sublist last and optional',
    );
  }
  const output = args.length % 2 === 1 ? parseSublist(last, 'the output sublist') : undefined;
  const text = (w: Written): string => {
    const l = [...w.letters];
    if (w.ellipsis >= 0) l.splice(w.ellipsis, 0, ELLIPSIS);
    return l.join('');
  };
  return { operands, inputs, output, text: `${inputs.map(text).join(',')}${output ? `->${text(output)}` : ''}` };
}

export { splitArguments, resolveLabels, ellipsisLabel };
export type { Subscripts, Written };
