import { createTwoFilesPatch } from 'diff';

/** Text a patch can show: valid UTF-8 without NUL bytes (as git decides "binary"). */
function asText(bytes: Uint8Array | null): string | null {
  if (bytes === null) return '';
  if (bytes.includes(0)) return null;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/**
 * The unified diff of one file between its two versions (null: the file does not exist on that
 * side), as `git diff` prints it (`a/` and `b/` prefixes, /dev/null for an added or removed
 * file), or git's one line for binary content.
 */
export function filePatch(path: string, before: Uint8Array | null, after: Uint8Array | null): string {
  const oldName = before === null ? '/dev/null' : `a/${path}`;
  const newName = after === null ? '/dev/null' : `b/${path}`;
  const [oldText, newText] = [asText(before), asText(after)];
  if (oldText === null || newText === null) return `Binary files ${oldName} and ${newName} differ\n`;
  const patch = createTwoFilesPatch(oldName, newName, oldText, newText, undefined, undefined, { context: 3 });
  // jsdiff starts with an "Index:"-less "===" header line; git starts at "---".
  return `diff --git a/${path} b/${path}\n${patch.slice(patch.indexOf('--- '))}`;
}
