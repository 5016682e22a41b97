/**
 * The glob syntax of `search` (glob, grep.include), parsed into a small regular-expression tree
 * that `glob-matcher.ts` runs as an automaton. Paths are matched whole, `/` separating segments:
 *
 * - `*` any run of characters within a segment (dotfiles included); `?` one character but `/`;
 * - `**` as a whole segment any number of segments, none included (`**` alone: every path;
 *   `a/**` also matches `a`); elsewhere (`a**`, `***`) it is `*`;
 * - `[abc]`, `[a-z]`, `[!a]` / `[^a]` (not these), `[[:alpha:]]` and the other POSIX classes;
 *   a class never matches `/`;
 * - `{a,b}` either alternative (nested, empty ones allowed); braces without a comma are literal;
 * - `\x` the character x; a leading `./` is dropped; a leading `!` matches the paths the rest does not.
 *
 * Everything else is literal, `(`, `)`, `|`, `+` and `@` included (no extglobs, no `{1..3}` ranges).
 */
export type GlobNode =
  | { kind: 'char'; test: (codePoint: number) => boolean }
  | { kind: 'sequence'; items: GlobNode[] }
  | { kind: 'either'; options: GlobNode[] }
  | { kind: 'repeat'; item: GlobNode }
  | { kind: 'optional'; item: GlobNode };

export interface ParsedGlob {
  root: GlobNode;
  /** A leading `!`: the glob matches the paths `root` does not. */
  negated: boolean;
}

const SLASH = 0x2f;
const literal = (codePoint: number): GlobNode => ({ kind: 'char', test: (c) => c === codePoint });
const ANY_BUT_SLASH: GlobNode = { kind: 'char', test: (c) => c !== SLASH };
const ANY: GlobNode = { kind: 'char', test: () => true };
const STAR: GlobNode = { kind: 'repeat', item: ANY_BUT_SLASH };
const ANY_RUN: GlobNode = { kind: 'repeat', item: ANY };

const POSIX_CLASSES: Record<string, (c: number) => boolean> = {
  alnum: (c) => /[A-Za-z0-9]/.test(String.fromCodePoint(c)),
  alpha: (c) => /[A-Za-z]/.test(String.fromCodePoint(c)),
  ascii: (c) => c <= 0x7f,
  blank: (c) => c === 0x20 || c === 0x09,
  cntrl: (c) => c < 0x20 || c === 0x7f,
  digit: (c) => c >= 0x30 && c <= 0x39,
  graph: (c) => c > 0x20 && c < 0x7f,
  lower: (c) => c >= 0x61 && c <= 0x7a,
  print: (c) => c >= 0x20 && c < 0x7f,
  punct: (c) => /[!-/:-@[-`{-~]/.test(String.fromCodePoint(c)),
  space: (c) => c === 0x20 || (c >= 0x09 && c <= 0x0d),
  upper: (c) => c >= 0x41 && c <= 0x5a,
  word: (c) => /\w/.test(String.fromCodePoint(c)),
  xdigit: (c) => /[0-9A-Fa-f]/.test(String.fromCodePoint(c)),
};

export function parseGlob(pattern: string): ParsedGlob {
  let chars = Array.from(pattern);
  const negated = chars[0] === '!';
  if (negated) chars = chars.slice(1);
  while (chars[0] === '.' && chars[1] === '/') chars = chars.slice(2);
  return { root: parseSequence(chars), negated };
}

/** Where a `**` stands as a whole segment: at an edge of the (sub)pattern, or beside `/`. */
function isSegmentEdge(char: string | undefined): boolean {
  return char === undefined || char === '/';
}

function parseSequence(chars: string[]): GlobNode {
  const items: GlobNode[] = [];
  let index = 0;
  while (index < chars.length) {
    const char = chars[index]!;
    if (char === '\\') {
      items.push(literal((chars[index + 1] ?? '\\').codePointAt(0)!));
      index += 2;
    } else if (char === '/' && runOfStarsEnds(chars, index + 1) === index + 3 && index + 3 === chars.length) {
      // `a/**` also matches `a`: the separator is part of what the trailing globstar may leave out.
      items.push({ kind: 'optional', item: { kind: 'sequence', items: [literal(SLASH), ANY_RUN] } });
      index = chars.length;
    } else if (char === '*') {
      const end = runOfStarsEnds(chars, index);
      const wholeSegment = end - index === 2 && isSegmentEdge(chars[index - 1]) && isSegmentEdge(chars[end]);
      if (!wholeSegment) items.push(STAR);
      else if (chars[end] === '/') items.push({ kind: 'optional', item: { kind: 'sequence', items: [ANY_RUN, literal(SLASH)] } });
      else items.push(ANY_RUN);
      index = wholeSegment && chars[end] === '/' ? end + 1 : end;
    } else if (char === '?') {
      items.push(ANY_BUT_SLASH);
      index += 1;
    } else if (char === '[') {
      const parsed = parseClass(chars, index);
      items.push(parsed ? parsed.node : literal(0x5b));
      index = parsed ? parsed.end : index + 1;
    } else if (char === '{') {
      const parsed = parseBraces(chars, index);
      items.push(parsed ? parsed.node : literal(0x7b));
      index = parsed ? parsed.end : index + 1;
    } else {
      items.push(literal(char.codePointAt(0)!));
      index += 1;
    }
  }
  return items.length === 1 ? items[0]! : { kind: 'sequence', items };
}

function runOfStarsEnds(chars: string[], start: number): number {
  let end = start;
  while (chars[end] === '*') end += 1;
  return end;
}

/** `{a,b,…}` from `start` (at `{`), or null when it is not closed or holds no top-level comma (then `{` is literal). */
function parseBraces(chars: string[], start: number): { node: GlobNode; end: number } | null {
  const options: string[][] = [];
  let current: string[] = [];
  let depth = 0;
  for (let index = start + 1; index < chars.length; index += 1) {
    const char = chars[index]!;
    if (char === '\\') {
      current.push(char, chars[index + 1] ?? '');
      index += 1;
    } else if (char === '{') {
      depth += 1;
      current.push(char);
    } else if (char === '}' && depth > 0) {
      depth -= 1;
      current.push(char);
    } else if (char === '}') {
      if (options.length === 0) return null;
      options.push(current);
      return { node: { kind: 'either', options: options.map(parseSequence) }, end: index + 1 };
    } else if (char === ',' && depth === 0) {
      options.push(current);
      current = [];
    } else {
      current.push(char);
    }
  }
  return null;
}

/** `[…]` from `start` (at `[`), or null when it is not closed (then `[` is literal). Never matches `/`. */
function parseClass(chars: string[], start: number): { node: GlobNode; end: number } | null {
  let index = start + 1;
  const negated = chars[index] === '!' || chars[index] === '^';
  if (negated) index += 1;
  const tests: Array<(c: number) => boolean> = [];
  let first = true;
  while (index < chars.length) {
    const char = chars[index]!;
    if (char === ']' && !first) {
      const matches = (c: number) => tests.some((test) => test(c));
      return { node: { kind: 'char', test: (c) => c !== SLASH && matches(c) !== negated }, end: index + 1 };
    }
    first = false;
    if (char === '[' && chars[index + 1] === ':') {
      const close = chars.indexOf(':', index + 2);
      const name = close > 0 && chars[close + 1] === ']' ? chars.slice(index + 2, close).join('') : '';
      const posix = POSIX_CLASSES[name];
      if (posix) {
        tests.push(posix);
        index = close + 2;
        continue;
      }
    }
    let low = char;
    if (char === '\\' && index + 1 < chars.length) low = chars[(index += 1)]!;
    index += 1;
    if (chars[index] === '-' && chars[index + 1] !== undefined && chars[index + 1] !== ']') {
      let high = chars[index + 1]!;
      index += 2;
      if (high === '\\' && index < chars.length) high = chars[index++]!;
      const [from, to] = [low.codePointAt(0)!, high.codePointAt(0)!];
      tests.push((c) => c >= from && c <= to);
    } else {
      const only = low.codePointAt(0)!;
      tests.push((c) => c === only);
    }
  }
  return null;
}
