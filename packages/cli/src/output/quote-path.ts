/** git's C escapes for the control characters that have one. */
const NAMED: Record<string, string> = { '\u0007': '\\a', '\b': '\\b', '\t': '\\t', '\n': '\\n', '\u000b': '\\v', '\f': '\\f', '\r': '\\r', '"': '\\"', '\\': '\\\\' };

/** Control characters (C0, DEL, C1), quotes and backslashes: what makes a path need quoting. */
const NEEDS_QUOTING = /[\u0000-\u001f\u007f-\u009f"\\]/;

/**
 * A path for a terminal, as git prints one (core.quotePath, non-ASCII letters kept): as it is
 * when plain, else in double quotes with C escapes and octal bytes. A runtime names its files, so
 * a name may carry a terminal escape or a newline that would forge a line of output.
 */
export function quotePath(path: string): string {
  if (!NEEDS_QUOTING.test(path)) return path;
  let quoted = '';
  for (const character of path) {
    if (NAMED[character] !== undefined) quoted += NAMED[character];
    else if (NEEDS_QUOTING.test(character)) for (const byte of Buffer.from(character, 'utf8')) quoted += `\\${byte.toString(8).padStart(3, '0')}`;
    else quoted += character;
  }
  return `"${quoted}"`;
}
