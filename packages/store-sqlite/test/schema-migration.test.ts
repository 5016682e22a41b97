import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RuntimectlError } from '@runtimectl/core';
import { checkpointRecord, sessionRecord } from '@runtimectl/testkit';
import {
  createSqliteStore,
  LATEST_SCHEMA_VERSION,
  NotARuntimectlStoreError,
  SCHEMA_MIGRATIONS,
  SchemaVersionTooNewError,
  type SchemaMigration,
} from '../src/index';
import { migrateSchema, RUNTIMECTL_APPLICATION_ID } from '../src/migrate-schema';
import { temporaryDirectory } from './temp-directory';

/** sha256 of the released v1 migration. A released migration is never edited: append a new one. */
const V1_SQL_SHA256 = '9cc2294d01626d59599032df3d985f03a3fedd47e904dd0f621854689a752050';

const sha256 = (bytes: string | Buffer) => createHash('sha256').update(bytes).digest('hex');

/** Builds a v1 database with raw SQL only (no store code): the v1 DDL and v1-shaped rows. */
function writeV1FileByHand(path: string): void {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.exec(SCHEMA_MIGRATIONS[0]!.sql);
  // One transaction: the session names its head checkpoint before the checkpoint row exists.
  db.exec('BEGIN');
  db.prepare(
    `INSERT INTO sessions (runtime_id, conversation_id, sender_id, status, provider_id, provider_options,
       backend_id, backend_provider_id, backend_resource, backend_source_snapshot_id, session_state, metadata,
       parent_runtime_id, forked_from_checkpoint_id, head_checkpoint_id, paused_checkpoint_id, last_error,
       keep_snapshots, created_at_ms, updated_at_ms)
     VALUES ('rt-v1', 'conversation-v1', 'sender-v1', 'paused', 'e2b', '{"template":"base"}',
       NULL, NULL, NULL, NULL, '{"turn":4}', '{"from":"v1"}',
       NULL, NULL, 'rtcp_00000000000000000000000000000001', 'rtcp_00000000000000000000000000000001', NULL,
       0, 1764000000000, 1764000000001)`,
  ).run();
  db.prepare(
    `INSERT INTO checkpoints (checkpoint_id, runtime_id, parent_checkpoint_id, kind, name, metadata, created_at_ms, session,
       ref_id, ref_provider_id, ref_source_backend_id, ref_provider_snapshot_id, ref_provider_snapshot_names,
       ref_snapshot_deleted_at_ms, ref_created_at_ms)
     VALUES ('rtcp_00000000000000000000000000000001', 'rt-v1', NULL, 'pause', 'nap', '{}', 1764000000001,
       '{"conversationId":"conversation-v1","senderId":"sender-v1","providerId":"e2b","providerOptions":{"template":"base"},"sessionState":{"turn":4},"metadata":{"from":"v1"}}',
       'bcp_v1', 'e2b', 'bkd_v1', 'snap-v1', '["snap-v1"]', NULL, 1764000000001)`,
  ).run();
  db.exec('COMMIT');
  db.pragma(`application_id = ${RUNTIMECTL_APPLICATION_ID}`);
  db.pragma('user_version = 1');
  db.close();
}

function versionsOf(path: string): { userVersion: number; applicationId: number; tables: string[] } {
  const db = new Database(path, { readonly: true });
  try {
    return {
      userVersion: db.pragma('user_version', { simple: true }) as number,
      applicationId: db.pragma('application_id', { simple: true }) as number,
      tables: (db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").all() as Array<{ name: string }>).map(
        (row) => row.name,
      ),
    };
  } finally {
    db.close();
  }
}

async function openError(path: string): Promise<unknown> {
  try {
    await createSqliteStore({ path }).close();
  } catch (error) {
    return error;
  }
  throw new Error('expected the store to refuse the file');
}

describe('schema versions and migrations', () => {
  let directory: ReturnType<typeof temporaryDirectory>;
  let path: string;
  beforeEach(() => {
    directory = temporaryDirectory();
    path = join(directory.path, 'runtimectl.db');
  });
  afterEach(() => directory.remove());

  it('the released v1 migration is unchanged (schema changes are appended as new migrations)', () => {
    expect(SCHEMA_MIGRATIONS[0]!.version).toBe(1);
    expect(sha256(SCHEMA_MIGRATIONS[0]!.sql)).toBe(V1_SQL_SHA256);
  });

  it('a new file gets the latest schema version, the runtimectl application id and WAL', async () => {
    const store = createSqliteStore({ path });
    expect(store.migration).toStrictEqual({ fromVersion: 0, toVersion: LATEST_SCHEMA_VERSION });
    await store.close();
    expect(versionsOf(path)).toMatchObject({
      userVersion: LATEST_SCHEMA_VERSION,
      applicationId: RUNTIMECTL_APPLICATION_ID,
      tables: expect.arrayContaining(['checkpoints', 'sessions']),
    });
    const db = new Database(path, { readonly: true });
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    db.close();
  });

  it('a v1 file written by hand opens, is brought to the latest version, and its records read back whole', async () => {
    writeV1FileByHand(path);
    const store = createSqliteStore({ path });
    expect(store.migration).toStrictEqual({ fromVersion: 1, toVersion: LATEST_SCHEMA_VERSION });
    expect(await store.getSession('rt-v1')).toStrictEqual(
      sessionRecord('rt-v1', {
        conversationId: 'conversation-v1',
        senderId: 'sender-v1',
        status: 'paused',
        providerId: 'e2b',
        providerOptions: { template: 'base' },
        sessionState: { turn: 4 },
        metadata: { from: 'v1' },
        headCheckpointId: 'rtcp_00000000000000000000000000000001',
        pausedCheckpointId: 'rtcp_00000000000000000000000000000001',
        updatedAtMs: 1_764_000_000_001,
      }),
    );
    const checkpoint = await store.getCheckpoint('rtcp_00000000000000000000000000000001');
    expect(checkpoint).toMatchObject({ kind: 'pause', name: 'nap', backendRef: { providerSnapshotId: 'snap-v1', providerSnapshotNames: ['snap-v1'] } });
    expect(await store.listCheckpointsBySnapshot('e2b', 'snap-v1')).toHaveLength(1);
    await store.close();
    expect(versionsOf(path).userVersion).toBe(LATEST_SCHEMA_VERSION);
  });

  it('a file with a newer schema version is refused at open with both versions named, and left unchanged', async () => {
    await createSqliteStore({ path }).close();
    const db = new Database(path);
    db.pragma(`user_version = ${LATEST_SCHEMA_VERSION + 1}`);
    db.close();
    const before = sha256(readFileSync(path));

    const error = await openError(path);
    expect(SchemaVersionTooNewError.isInstance(error)).toBe(true);
    expect(RuntimectlError.isInstance(error)).toBe(true);
    const message = (error as Error).message;
    expect(message).toContain(`schema version ${LATEST_SCHEMA_VERSION + 1}`);
    expect(message).toContain(`versions up to ${LATEST_SCHEMA_VERSION}`);
    expect(message).toContain('newer runtimectl');
    expect((error as SchemaVersionTooNewError).details).toStrictEqual({
      databaseVersion: LATEST_SCHEMA_VERSION + 1,
      supportedVersion: LATEST_SCHEMA_VERSION,
    });
    expect(sha256(readFileSync(path))).toBe(before);
    expect(versionsOf(path).userVersion).toBe(LATEST_SCHEMA_VERSION + 1);
  });

  it('an SQLite file of another application, or with foreign tables, or not SQLite at all, is refused and left unchanged', async () => {
    const foreign = new Database(path);
    foreign.exec('CREATE TABLE sessions (id INTEGER PRIMARY KEY, something TEXT)');
    foreign.close();
    expect(NotARuntimectlStoreError.isInstance(await openError(path))).toBe(true);
    expect(versionsOf(path)).toMatchObject({ userVersion: 0, tables: ['sessions'] });

    const other = join(directory.path, 'other.db');
    const otherDb = new Database(other);
    otherDb.pragma('application_id = 42');
    otherDb.close();
    expect((await openError(other) as Error).message).toContain('application_id is 0x2a');

    const text = join(directory.path, 'notes.db');
    writeFileSync(text, 'these are notes, not a database'.repeat(100));
    expect(NotARuntimectlStoreError.isInstance(await openError(text))).toBe(true);
    expect(readFileSync(text, 'utf8')).toBe('these are notes, not a database'.repeat(100));
  });

  describe('a later migration (one more appended to the list)', () => {
    const next = LATEST_SCHEMA_VERSION + 1;
    const later: SchemaMigration = {
      version: next,
      description: 'test only: a table and a column',
      sql: `CREATE TABLE test_only_notes (note_id TEXT NOT NULL PRIMARY KEY, runtime_id TEXT NOT NULL) STRICT;
            ALTER TABLE sessions ADD COLUMN owner TEXT NOT NULL DEFAULT 'nobody';`,
    };

    it('upgrades a file in place, once, keeping its records; the older code then refuses the file as newer', async () => {
      const store = createSqliteStore({ path });
      await store.commit({ sessions: [sessionRecord('rt-1')], checkpoints: [checkpointRecord('rtcp_1', 'rt-1')] });
      await store.close();

      const db = new Database(path);
      expect(migrateSchema(db, path, [...SCHEMA_MIGRATIONS, later])).toStrictEqual({ fromVersion: LATEST_SCHEMA_VERSION, toVersion: next });
      expect(migrateSchema(db, path, [...SCHEMA_MIGRATIONS, later])).toStrictEqual({ fromVersion: next, toVersion: next });
      expect(db.prepare('SELECT runtime_id, owner FROM sessions').all()).toStrictEqual([{ runtime_id: 'rt-1', owner: 'nobody' }]);
      db.close();
      expect(versionsOf(path).userVersion).toBe(next);
      expect(versionsOf(path).tables).toContain('test_only_notes');
      expect(SchemaVersionTooNewError.isInstance(await openError(path))).toBe(true);
    });

    it('a migration that fails leaves the file at its old version with nothing of the migration applied', async () => {
      await createSqliteStore({ path }).close();
      const broken: SchemaMigration = { ...later, sql: `${later.sql} INSERT INTO no_such_table VALUES (1);` };
      const db = new Database(path);
      expect(() => migrateSchema(db, path, [...SCHEMA_MIGRATIONS, broken])).toThrow(/no_such_table/);
      db.close();
      expect(versionsOf(path).userVersion).toBe(LATEST_SCHEMA_VERSION);
      expect(versionsOf(path).tables).not.toContain('test_only_notes');
      await createSqliteStore({ path }).close();
    });

    it('a migration list with a gap in its versions is refused before anything runs', () => {
      const db = new Database(path);
      expect(() => migrateSchema(db, path, [...SCHEMA_MIGRATIONS, { ...later, version: next + 1 }])).toThrow(/versions must be 1, 2, 3/);
      expect(db.pragma('user_version', { simple: true })).toBe(0);
      db.close();
    });
  });
});
