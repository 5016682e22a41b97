import { createTwoFilesPatch } from 'diff';
import { quotePath } from './quote-path';

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
 * side), as `git diff` prints it: the `diff --git` line, then `header` (git's extended header
 * lines, such as `new file mode 100644`), then `a/` and `b/` names (/dev/null for an added or
 * removed file) and the hunks, or git's one line for binary content. A name that needs quoting
 * is C-quoted with its prefix (`"a/x\033"`), as git quotes it (see quotePath).
 */
export function filePatch(path: string, before: Uint8Array | null, after: Uint8Array | null, header: readonly string[] = []): string {
  const oldName = before === null ? '/dev/null' : quotePath(`a/${path}`);
  const newName = after === null ? '/dev/null' : quotePath(`b/${path}`);
  const top = [gitDiffLine(path), ...header].map((line) => `${line}\n`).join('');
  const [oldText, newText] = [asText(before), asText(after)];
  if (oldText === null || newText === null) return `${top}Binary files ${oldName} and ${newName} differ\n`;
  const patch = createTwoFilesPatch('a', 'b', oldText, newText, undefined, undefined, { context: 3 });
  // The names are git's, quoted as git quotes them (jsdiff would quote them its own way); the hunks jsdiff's.
  const hunks = patch.indexOf('\n@@');
  return `${top}--- ${oldName}\n+++ ${newName}\n${hunks < 0 ? '' : patch.slice(hunks + 1)}`;
}

/** git's `diff --git a/<path> b/<path>` line, each name quoted when it needs it. */
export function gitDiffLine(path: string): string {
  return `diff --git ${quotePath(`a/${path}`)} ${quotePath(`b/${path}`)}`;
}
