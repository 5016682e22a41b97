import type { DiffEntry } from '@runtimectl/core';
import { describe, expect, it } from 'vitest';
import { entryPatch, type SideReader } from './diff-patch';

type Kind = DiffEntry['old_kind'];

/** An entry from the kinds of its two sides (null: absent); files of 0644, directories of 0755, symlinks 0777. */
function entry(path: string, change: DiffEntry['change'], oldKind: Kind, newKind: Kind, targets: { old?: string; new?: string } = {}): DiffEntry {
  const mode = (kind: Kind) => (kind === null ? null : kind === 'file' ? 0o644 : kind === 'directory' ? 0o755 : 0o777);
  return {
    path,
    change,
    old_kind: oldKind,
    new_kind: newKind,
    old_size: oldKind === null ? null : 1,
    new_size: newKind === null ? null : 1,
    old_mode: mode(oldKind),
    new_mode: mode(newKind),
    old_target: targets.old ?? null,
    new_target: targets.new ?? null,
  };
}

/** Reads `old:<path>` / `new:<path>` from a map; anything else is a test mistake. */
function reader(files: Record<string, string>): SideReader {
  return async (side, path) => {
    const text = files[`${side}:${path}`];
    if (text === undefined) throw new Error(`unexpected read of ${side}:${path}`);
    return new Uint8Array(Buffer.from(text));
  };
}

describe('diff --patch, one changed path', () => {
  it('an added or removed file says so in git\'s extended header', async () => {
    expect(await entryPatch(entry('n.txt', 'added', null, 'file'), reader({ 'new:n.txt': 'n\n' }))).toBe(
      'diff --git a/n.txt b/n.txt\nnew file mode 100644\n--- /dev/null\n+++ b/n.txt\n@@ -0,0 +1,1 @@\n+n\n',
    );
    expect(await entryPatch(entry('g.txt', 'removed', 'file', null), reader({ 'old:g.txt': 'g\n' }))).toBe(
      'diff --git a/g.txt b/g.txt\ndeleted file mode 100644\n--- a/g.txt\n+++ /dev/null\n@@ -1,1 +0,0 @@\n-g\n',
    );
  });

  it('a symlink is shown as git shows it: mode 120000 and its target as the content', async () => {
    const none = reader({});
    expect(await entryPatch(entry('l', 'added', null, 'symlink', { new: 'a.txt' }), none)).toBe(
      'diff --git a/l b/l\nnew file mode 120000\n--- /dev/null\n+++ b/l\n@@ -0,0 +1,1 @@\n+a.txt\n\\ No newline at end of file\n',
    );
    expect(await entryPatch(entry('l', 'modified', 'symlink', 'symlink', { old: 'a.txt', new: 'b' }), none)).toBe(
      'diff --git a/l b/l\n--- a/l\n+++ b/l\n@@ -1,1 +1,1 @@\n-a.txt\n\\ No newline at end of file\n+b\n\\ No newline at end of file\n',
    );
    expect(await entryPatch(entry('l', 'removed', 'symlink', null, { old: 'b' }), none)).toBe(
      'diff --git a/l b/l\ndeleted file mode 120000\n--- a/l\n+++ /dev/null\n@@ -1,1 +0,0 @@\n-b\n\\ No newline at end of file\n',
    );
  });

  it('a file that became a directory shows the file deleted and the directory added, not a deletion only', async () => {
    expect(await entryPatch(entry('x', 'type_changed', 'file', 'directory'), reader({ 'old:x': 'was\n' }))).toBe(
      'diff --git a/x b/x\ndeleted file mode 100644\n--- a/x\n+++ /dev/null\n@@ -1,1 +0,0 @@\n-was\ndirectory x: added (mode 0755)\n',
    );
    expect(await entryPatch(entry('y', 'type_changed', 'directory', 'symlink', { new: 'x' }), reader({}))).toBe(
      'directory y: removed\ndiff --git a/y b/y\nnew file mode 120000\n--- /dev/null\n+++ b/y\n@@ -0,0 +1,1 @@\n+x\n\\ No newline at end of file\n',
    );
  });

  it('a file that became a symlink is a deletion and a creation, as git prints it', async () => {
    expect(await entryPatch(entry('f', 'type_changed', 'file', 'symlink', { new: 't' }), reader({ 'old:f': 'f\n' }))).toBe(
      'diff --git a/f b/f\ndeleted file mode 100644\n--- a/f\n+++ /dev/null\n@@ -1,1 +0,0 @@\n-f\n' +
        'diff --git a/f b/f\nnew file mode 120000\n--- /dev/null\n+++ b/f\n@@ -0,0 +1,1 @@\n+t\n\\ No newline at end of file\n',
    );
  });

  it('directories get one line each: added, removed, or their mode; a file mode change git\'s old/new mode', async () => {
    const none = reader({});
    expect(await entryPatch(entry('d', 'added', null, 'directory'), none)).toBe('directory d: added (mode 0755)\n');
    expect(await entryPatch(entry('d', 'removed', 'directory', null), none)).toBe('directory d: removed\n');
    expect(await entryPatch({ ...entry('d', 'mode_changed', 'directory', 'directory'), new_mode: 0o700 }, none)).toBe('directory d: mode 0755 -> 0700\n');
    expect(await entryPatch({ ...entry('run.sh', 'mode_changed', 'file', 'file'), new_mode: 0o755 }, none)).toBe(
      'diff --git a/run.sh b/run.sh\nold mode 100644\nnew mode 100755\n',
    );
  });

  it('a modified file whose mode changed too shows both', async () => {
    const changed = { ...entry('s', 'modified', 'file', 'file'), new_mode: 0o755 };
    expect(await entryPatch(changed, reader({ 'old:s': 'a\n', 'new:s': 'b\n' }))).toBe(
      'diff --git a/s b/s\nold mode 100644\nnew mode 100755\n--- a/s\n+++ b/s\n@@ -1,1 +1,1 @@\n-a\n+b\n',
    );
  });
});
