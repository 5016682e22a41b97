import Database from 'better-sqlite3';
import { NotARuntimectlStoreError } from './store-schema-errors';
import { assertSchemaOpenable, migrateSchema, type MigrationOutcome } from './migrate-schema';
import { createOwnerOnlyDatabaseFile, tightenDatabaseFiles } from './owner-only-files';

export interface SqliteStoreSettings {
  /**
   * The database file (its directory is created, owner-only). The file and SQLite's `-wal` and
   * `-shm` beside it are owner-only (0600): created so, and tightened when an existing store is
   * opened. `:memory:` gives a throwaway store.
   */
  path: string;
  /**
   * When a commit counts as done. `full` (default): the WAL is fsynced before `commit` resolves,
   * so an acknowledged write survives a process kill AND a power loss or OS crash. `normal`: the
   * write reaches the OS before `commit` resolves, which survives a process kill (the crash the
   * daemon is built for) but may lose the last commits on power loss; commits are several times
   * faster (≈10× in the package benchmark).
   * The database is never corrupted either way.
   */
  synchronous?: 'full' | 'normal';
  /** How long a write waits for another connection's lock before failing. Default 5000 ms. */
  busyTimeoutMs?: number;
}

export interface OpenedDatabase {
  db: Database.Database;
  migration: MigrationOutcome;
}

const DEFAULT_BUSY_TIMEOUT_MS = 5_000;
/** Keeps the WAL file from staying huge after a burst; it is truncated back to this at checkpoints. */
const WAL_SIZE_LIMIT_BYTES = 64 * 1024 * 1024;

/**
 * Opens the file with the store's pragmas and brings its schema up to date. WAL lets readers
 * (another process, a CLI) read while the daemon writes; foreign keys are per connection, so
 * they are switched on here. Closes the connection again if the schema is refused.
 */
export function openDatabase(settings: SqliteStoreSettings): OpenedDatabase {
  const inMemory = settings.path === ':memory:';
  if (!inMemory) createOwnerOnlyDatabaseFile(settings.path);
  const busyTimeoutMs = settings.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS;
  const db = new Database(settings.path, { timeout: busyTimeoutMs });
  try {
    db.pragma(`busy_timeout = ${Math.max(0, Math.trunc(busyTimeoutMs))}`);
    // Before any pragma that writes (journal_mode): a refused file must be left untouched.
    assertSchemaOpenable(db, settings.path);
    if (!inMemory) {
      tightenDatabaseFiles(settings.path);
      const mode = db.pragma('journal_mode = WAL', { simple: true });
      if (mode !== 'wal') throw new Error(`SQLite could not switch ${settings.path} to WAL mode (got ${String(mode)})`);
    }
    db.pragma(`synchronous = ${settings.synchronous === 'normal' ? 'NORMAL' : 'FULL'}`);
    db.pragma('foreign_keys = ON');
    db.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
    const migration = migrateSchema(db, settings.path);
    return { db, migration };
  } catch (error) {
    db.close();
    if ((error as { code?: unknown }).code === 'SQLITE_NOTADB') {
      throw new NotARuntimectlStoreError(settings.path, 'it is not an SQLite database');
    }
    throw error;
  }
}
