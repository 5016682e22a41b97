import pg from 'pg';
import Database from 'better-sqlite3';

export interface SessionRow {
  runtime_id: string;
  status: string;
  backend_id: string | null;
  backend_resource: string | null;
  backend_source_snapshot_id: string | null;
  keep_snapshots: number;
  metadata: string;
}

export interface CheckpointRow {
  checkpoint_id: string;
  runtime_id: string;
  ref_provider_snapshot_id: string | null;
  metadata: string;
}

export interface StoreFileRows {
  sessions: SessionRow[];
  checkpoints: CheckpointRow[];
  openIntents: number;
}

/**
 * Reads the daemon's SQLite file read-only while the daemon runs (WAL lets a reader see the
 * last committed state): the backend bindings and snapshot references are internal, so the
 * crash test compares the emulator's resources with the store's own rows.
 */
export function readStoreFile(path: string): StoreFileRows {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    return db.transaction(() => ({
      sessions: db
        .prepare('SELECT runtime_id, status, backend_id, backend_resource, backend_source_snapshot_id, keep_snapshots, metadata FROM sessions')
        .all() as SessionRow[],
      checkpoints: db.prepare('SELECT checkpoint_id, runtime_id, ref_provider_snapshot_id, metadata FROM checkpoints').all() as CheckpointRow[],
      openIntents: (db.prepare('SELECT count(*) AS n FROM intents').get() as { n: number }).n,
    }))();
  } finally {
    db.close();
  }
}

/**
 * The same rows from a postgres store's schema (read committed, like a second daemon would):
 * the crash test's view of what runtimed wrote, whatever the store.
 */
export async function readPostgresStoreRows(url: string, schema: string): Promise<StoreFileRows> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const sessions = await client.query<SessionRow>(
      `SELECT runtime_id, status, backend_id, backend_resource, backend_source_snapshot_id, keep_snapshots, metadata FROM ${schema}.sessions`,
    );
    const checkpoints = await client.query<CheckpointRow>(`SELECT checkpoint_id, runtime_id, ref_provider_snapshot_id, metadata FROM ${schema}.checkpoints`);
    const intents = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${schema}.intents`);
    await client.query('COMMIT');
    return { sessions: sessions.rows, checkpoints: checkpoints.rows, openIntents: intents.rows[0]!.n };
  } finally {
    await client.end();
  }
}
