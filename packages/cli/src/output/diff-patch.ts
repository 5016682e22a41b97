import type { DiffEntry } from '@runtimectl/core';
import { filePatch, gitDiffLine } from './file-patch';
import { quotePath } from './quote-path';

type Side = 'old' | 'new';

/** The bytes of a file at `path` as one side holds it (`old`: the from checkpoint; `new`: the other checkpoint or the live runtime). */
export type SideReader = (side: Side, path: string) => Promise<Uint8Array>;

function sideOf(entry: DiffEntry, side: Side) {
  return side === 'old'
    ? { kind: entry.old_kind, mode: entry.old_mode ?? 0, target: entry.old_target }
    : { kind: entry.new_kind, mode: entry.new_mode ?? 0, target: entry.new_target };
}

const octal = (mode: number) => mode.toString(8).padStart(4, '0');

/** git's mode of one side: 120000 for a symlink, the regular-file type bits and permissions for a file. */
function gitModeOf(entry: DiffEntry, side: Side): string {
  const { kind, mode } = sideOf(entry, side);
  return kind === 'symlink' ? '120000' : (0o100000 + (mode & 0o7777)).toString(8);
}

/** What a side shows as content: a file's bytes, a symlink's target (as git shows a link). */
async function contentOf(entry: DiffEntry, side: Side, read: SideReader): Promise<Uint8Array> {
  const { kind, target } = sideOf(entry, side);
  return kind === 'symlink' ? Buffer.from(target ?? '') : read(side, entry.path);
}

/** git's `old mode` / `new mode` header lines, when the two sides' modes differ. */
function modeLines(entry: DiffEntry): string[] {
  const [before, after] = [gitModeOf(entry, 'old'), gitModeOf(entry, 'new')];
  return before === after ? [] : [`old mode ${before}`, `new mode ${after}`];
}

/** The old side going away: a deleted file or symlink as git prints it, or one line for a directory. */
async function removal(entry: DiffEntry, read: SideReader): Promise<string> {
  if (entry.old_kind === 'directory') return `directory ${quotePath(entry.path)}: removed\n`;
  return filePatch(entry.path, await contentOf(entry, 'old', read), null, [`deleted file mode ${gitModeOf(entry, 'old')}`]);
}

/** The new side appearing: a new file or symlink as git prints it, or one line for a directory. */
async function addition(entry: DiffEntry, read: SideReader): Promise<string> {
  if (entry.new_kind === 'directory') return `directory ${quotePath(entry.path)}: added (mode ${octal(entry.new_mode ?? 0)})\n`;
  return filePatch(entry.path, null, await contentOf(entry, 'new', read), [`new file mode ${gitModeOf(entry, 'new')}`]);
}

/**
 * What `diff --patch` prints for one changed path, as `git diff` prints it where git has a form:
 * files with their content, symlinks with their target as content (mode 120000), new and deleted
 * ones with git's `new file mode` / `deleted file mode` header, a change of kind as the old side
 * deleted then the new side created (so a file that became a directory is not a bare deletion).
 * Directories, which git does not track, get one line each (`directory <path>: added (mode 0755)`,
 * `removed`, `mode 0755 -> 0700`) that `git apply` passes over. Reads only files' contents.
 */
export async function entryPatch(entry: DiffEntry, read: SideReader): Promise<string> {
  switch (entry.change) {
    case 'added':
      return addition(entry, read);
    case 'removed':
      return removal(entry, read);
    case 'type_changed':
      return (await removal(entry, read)) + (await addition(entry, read));
    case 'mode_changed':
      if (entry.new_kind === 'directory') return `directory ${quotePath(entry.path)}: mode ${octal(entry.old_mode ?? 0)} -> ${octal(entry.new_mode ?? 0)}\n`;
      return `${gitDiffLine(entry.path)}\n${modeLines(entry).join('\n')}\n`;
    case 'modified':
      return filePatch(entry.path, await contentOf(entry, 'old', read), await contentOf(entry, 'new', read), modeLines(entry));
  }
}
