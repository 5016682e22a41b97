import { InvalidRequestError } from '@runtimectl/core';

/** A surrogate code point: with the `u` flag only an unpaired one matches (a pair is one code point). */
const LONE_SURROGATE = /\p{Surrogate}/u;
const isWellFormed = (text: string) => !LONE_SURROGATE.test(text);

/**
 * Path (object keys and array indexes) to the first string of a parsed JSON value, key or value,
 * that is not well-formed UTF-16: a lone surrogate, which JSON can carry as `\ud800` but UTF-8
 * cannot. Depth is bounded by the parser's nesting check, so the recursion cannot overflow.
 */
export function findIllFormedString(value: unknown, path: Array<string | number> = []): Array<string | number> | undefined {
  if (typeof value === 'string') return isWellFormed(value) ? undefined : path;
  if (typeof value !== 'object' || value === null) return undefined;
  const entries: Array<[string | number, unknown]> = Array.isArray(value) ? [...value.entries()] : Object.entries(value);
  for (const [key, item] of entries) {
    if (typeof key === 'string' && !isWellFormed(key)) return [...path, key];
    const found = findIllFormedString(item, [...path, key]);
    if (found) return found;
  }
  return undefined;
}

/**
 * Why a parsed body is refused when one of its strings is ill-formed UTF-16. Stores keep text as
 * UTF-8 (SQLite turns a lone surrogate into U+FFFD), so such an id would be stored as a different
 * string than the caller sent and never match again; refusing it at the edge covers every field.
 */
export function illFormedStringRefusal(parsed: unknown): InvalidRequestError | undefined {
  const path = findIllFormedString(parsed);
  if (path === undefined) return undefined;
  const where = path.length > 0 ? path.join('.') : 'the body';
  return new InvalidRequestError(
    `invalid body: ${where}: a string with a lone surrogate (ill-formed UTF-16) is refused; send well-formed Unicode`,
    { in: 'body', path },
  );
}
