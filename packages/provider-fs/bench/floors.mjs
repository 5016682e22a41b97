// What any checkpoint of this kind must do at least, timed on the same workspace as the fs
// provider, so its targets can be read against a floor and not only against tar and cp:
//   - walk:    list every directory and lstat every entry (how a checkpoint that finds changes
//              by stat, as git's index does, learns that one file changed);
//   - content: the walk, then read and sha256 every regular file (what a content-addressed
//              first checkpoint must do before it writes anything);
//   - durable pack: the content floor, each file's bytes appended to ONE file, then one fsync
//              (a first checkpoint with every blob in one pack, durable when it answers).
// Single-threaded synchronous calls, as the provider's own file work is (src/snapshot-walk.ts).
import { createHash } from 'node:crypto';
import { closeSync, fsyncSync, lstatSync, openSync, readdirSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

function walk(directory, files) {
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    lstatSync(path);
    if (entry.isDirectory()) walk(path, files);
    else if (entry.isFile()) files.push(path);
  }
  return files;
}

/** Lists and lstats every entry of `workspace`; answers its regular files. */
export const walkFloor = (workspace) => walk(workspace, []);

/** The walk, then every regular file read and hashed with sha256. */
export function contentFloor(workspace) {
  for (const path of walk(workspace, [])) createHash('sha256').update(readFileSync(path)).digest();
}

/** The content floor with every file's bytes appended to `packPath`, fsynced once; the pack is removed after. */
export function durablePackFloor(workspace, packPath) {
  const fd = openSync(packPath, 'w');
  try {
    for (const path of walk(workspace, [])) {
      const bytes = readFileSync(path);
      createHash('sha256').update(bytes).digest();
      writeSync(fd, bytes);
    }
    fsyncSync(fd);
  } finally {
    closeSync(fd);
    rmSync(packPath, { force: true });
  }
}
