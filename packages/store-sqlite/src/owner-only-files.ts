import { chmodSync, closeSync, mkdirSync, openSync, statSync } from 'node:fs';
import { dirname } from 'node:path';

/** What SQLite keeps beside a database file: its write-ahead log, the log's index, a rollback journal. */
const COMPANION_SUFFIXES = ['-wal', '-shm', '-journal'];

/**
 * Creates the database's directory (owner-only when it is new) and the file itself, mode 0600,
 * when it does not exist yet: SQLite creates the `-wal` and `-shm` beside it with the database
 * file's permissions, so they are owner-only too. The store holds every runtime's session state
 * and metadata: no other local user may read it.
 */
export function createOwnerOnlyDatabaseFile(path: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  closeSync(openSync(path, 'a', 0o600));
}

/**
 * Takes group and other permissions off the database file and its companions (an older build
 * left them 0644). Files that do not exist are skipped; the directory is the operator's.
 */
export function tightenDatabaseFiles(path: string): void {
  for (const file of [path, ...COMPANION_SUFFIXES.map((suffix) => `${path}${suffix}`)]) {
    let mode: number;
    try {
      mode = statSync(file).mode;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
    if ((mode & 0o077) !== 0) chmodSync(file, mode & 0o7700);
  }
}
