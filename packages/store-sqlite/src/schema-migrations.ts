import type { SchemaMigration } from '@runtimectl/core';

// The version a step records is `PRAGMA user_version`.
export type { SchemaMigration };

/**
 * Every schema version this code understands, oldest first. A released entry is never edited:
 * a schema change is ONE new entry appended here (e.g. `{ version: 2, description: 'intents',
 * sql: 'CREATE TABLE intents (…);' }`), and `test/schema-migration.test.ts` keeps the v1 DDL
 * frozen so a v1 file is proven to migrate to whatever comes after.
 *
 * Foreign keys are DEFERRABLE INITIALLY DEFERRED: a batch may name a checkpoint before the
 * session that owns it (a pause commits both at once), and the check runs at COMMIT.
 * JSON documents are TEXT; every field a lookup filters or orders on is a real column.
 */
export const SCHEMA_MIGRATIONS: readonly SchemaMigration[] = [
  {
    version: 1,
    description: 'sessions (runtimes) and checkpoints, with an index for every lookup the service does',
    sql: `
      CREATE TABLE sessions (
        runtime_id                 TEXT    NOT NULL PRIMARY KEY,
        conversation_id            TEXT    NOT NULL,
        sender_id                  TEXT    NOT NULL,
        status                     TEXT    NOT NULL,
        provider_id                TEXT    NOT NULL,
        provider_options           TEXT    NOT NULL,
        backend_id                 TEXT,
        backend_provider_id        TEXT,
        backend_resource           TEXT,
        backend_source_snapshot_id TEXT,
        session_state              TEXT    NOT NULL,
        metadata                   TEXT    NOT NULL,
        parent_runtime_id          TEXT    REFERENCES sessions (runtime_id) DEFERRABLE INITIALLY DEFERRED,
        forked_from_checkpoint_id  TEXT    REFERENCES checkpoints (checkpoint_id) DEFERRABLE INITIALLY DEFERRED,
        head_checkpoint_id         TEXT    REFERENCES checkpoints (checkpoint_id) DEFERRABLE INITIALLY DEFERRED,
        paused_checkpoint_id       TEXT    REFERENCES checkpoints (checkpoint_id) DEFERRABLE INITIALLY DEFERRED,
        last_error                 TEXT,
        keep_snapshots             INTEGER NOT NULL CHECK (keep_snapshots IN (0, 1)),
        created_at_ms              INTEGER NOT NULL,
        updated_at_ms              INTEGER NOT NULL,
        CHECK ((backend_id IS NULL) = (backend_provider_id IS NULL)),
        CHECK ((backend_id IS NULL) = (backend_resource IS NULL))
      ) STRICT;

      CREATE INDEX sessions_by_status ON sessions (status, runtime_id);
      CREATE INDEX sessions_by_parent ON sessions (parent_runtime_id, runtime_id)
        WHERE parent_runtime_id IS NOT NULL;
      CREATE INDEX sessions_by_backend ON sessions (backend_id, runtime_id)
        WHERE backend_id IS NOT NULL;
      CREATE INDEX sessions_by_source_snapshot ON sessions (backend_provider_id, backend_source_snapshot_id, runtime_id)
        WHERE backend_source_snapshot_id IS NOT NULL;
      -- Child keys of the checkpoint foreign keys: SQLite looks children up by them when a
      -- referenced checkpoint is written while a deferred violation is pending.
      CREATE INDEX sessions_by_head ON sessions (head_checkpoint_id) WHERE head_checkpoint_id IS NOT NULL;
      CREATE INDEX sessions_by_paused_head ON sessions (paused_checkpoint_id) WHERE paused_checkpoint_id IS NOT NULL;
      CREATE INDEX sessions_by_fork_point ON sessions (forked_from_checkpoint_id) WHERE forked_from_checkpoint_id IS NOT NULL;

      CREATE TABLE checkpoints (
        checkpoint_id               TEXT    NOT NULL PRIMARY KEY,
        runtime_id                  TEXT    NOT NULL REFERENCES sessions (runtime_id) DEFERRABLE INITIALLY DEFERRED,
        parent_checkpoint_id        TEXT    REFERENCES checkpoints (checkpoint_id) DEFERRABLE INITIALLY DEFERRED,
        kind                        TEXT    NOT NULL,
        name                        TEXT,
        metadata                    TEXT    NOT NULL,
        created_at_ms               INTEGER NOT NULL,
        session                     TEXT    NOT NULL,
        ref_id                      TEXT,
        ref_provider_id             TEXT,
        ref_source_backend_id       TEXT,
        ref_provider_snapshot_id    TEXT,
        ref_provider_snapshot_names TEXT,
        ref_snapshot_deleted_at_ms  INTEGER,
        ref_created_at_ms           INTEGER,
        CHECK ((ref_id IS NULL) = (ref_provider_id IS NULL)),
        CHECK ((ref_id IS NULL) = (ref_source_backend_id IS NULL)),
        CHECK ((ref_id IS NULL) = (ref_provider_snapshot_names IS NULL)),
        CHECK ((ref_id IS NULL) = (ref_created_at_ms IS NULL))
      ) STRICT;

      CREATE INDEX checkpoints_by_runtime ON checkpoints (runtime_id, checkpoint_id);
      CREATE INDEX checkpoints_by_snapshot ON checkpoints (ref_provider_id, ref_provider_snapshot_id, checkpoint_id)
        WHERE ref_provider_snapshot_id IS NOT NULL;
      CREATE INDEX checkpoints_by_parent ON checkpoints (parent_checkpoint_id) WHERE parent_checkpoint_id IS NOT NULL;
    `,
  },
  {
    version: 2,
    description: 'provider intents (crash reconciliation) and Idempotency-Key records',
    sql: `
      -- No foreign key to sessions: an open records its intent before the runtime exists.
      CREATE TABLE intents (
        intent_id     TEXT    NOT NULL PRIMARY KEY,
        kind          TEXT    NOT NULL CHECK (kind IN ('backend', 'snapshot')),
        provider_id   TEXT    NOT NULL,
        runtime_id    TEXT    NOT NULL,
        backend_id    TEXT    NOT NULL,
        created_at_ms INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX intents_by_age ON intents (created_at_ms, intent_id);

      CREATE TABLE idempotency_keys (
        key           TEXT    NOT NULL PRIMARY KEY,
        fingerprint   TEXT    NOT NULL,
        state         TEXT    NOT NULL CHECK (state IN ('in_flight', 'completed')),
        owner_id      TEXT    NOT NULL,
        status_code   INTEGER,
        response_body TEXT,
        created_at_ms INTEGER NOT NULL,
        expires_at_ms INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX idempotency_keys_by_expiry ON idempotency_keys (expires_at_ms);
    `,
  },
  {
    version: 3,
    description: 'runtimes by the provider of their backend (start-up reconciliation reads only its own)',
    sql: `
      CREATE INDEX sessions_by_backend_provider ON sessions (backend_provider_id, runtime_id)
        WHERE backend_provider_id IS NOT NULL;
      CREATE INDEX sessions_by_backend_provider_status ON sessions (backend_provider_id, status, runtime_id)
        WHERE backend_provider_id IS NOT NULL;
    `,
  },
  {
    version: 4,
    description: 'Idempotency-Key records weighed (idempotencyRecordBytes) with a running total, so eviction is bounded work',
    sql: `
      ALTER TABLE idempotency_keys ADD COLUMN stored_bytes INTEGER NOT NULL DEFAULT 0;
      UPDATE idempotency_keys SET stored_bytes =
        length(CAST(key AS BLOB)) + length(CAST(fingerprint AS BLOB)) + coalesce(length(CAST(response_body AS BLOB)), 0);
      CREATE TABLE idempotency_totals (
        id           INTEGER NOT NULL PRIMARY KEY CHECK (id = 1),
        stored_bytes INTEGER NOT NULL
      ) STRICT;
      INSERT INTO idempotency_totals (id, stored_bytes) SELECT 1, coalesce(sum(stored_bytes), 0) FROM idempotency_keys;
      CREATE TRIGGER idempotency_keys_weigh_insert AFTER INSERT ON idempotency_keys BEGIN
        UPDATE idempotency_totals SET stored_bytes = stored_bytes + NEW.stored_bytes WHERE id = 1;
      END;
      CREATE TRIGGER idempotency_keys_weigh_update AFTER UPDATE OF stored_bytes ON idempotency_keys BEGIN
        UPDATE idempotency_totals SET stored_bytes = stored_bytes + NEW.stored_bytes - OLD.stored_bytes WHERE id = 1;
      END;
      CREATE TRIGGER idempotency_keys_weigh_delete AFTER DELETE ON idempotency_keys BEGIN
        UPDATE idempotency_totals SET stored_bytes = stored_bytes - OLD.stored_bytes WHERE id = 1;
      END;
      CREATE INDEX idempotency_keys_completed_by_age ON idempotency_keys (created_at_ms, key) WHERE state = 'completed';
    `,
  },
  {
    version: 5,
    description: "the fleet: a runtime's home node and clean checkpoint, an intent's node, the node registry and the installation id",
    // Leases are not here: they live in a TEMP table of the connection (lease-table.ts).
    sql: `
      ALTER TABLE sessions ADD COLUMN backend_clean_checkpoint_id TEXT;
      ALTER TABLE sessions ADD COLUMN home_node_id TEXT;
      ALTER TABLE intents ADD COLUMN node_id TEXT;

      CREATE TABLE nodes (
        node_id         TEXT    NOT NULL PRIMARY KEY,
        advertise_url   TEXT,
        version         TEXT    NOT NULL,
        started_at_ms   INTEGER NOT NULL,
        heartbeat_at_ms INTEGER NOT NULL
      ) STRICT;

      CREATE TABLE installation (
        id              INTEGER NOT NULL PRIMARY KEY CHECK (id = 1),
        installation_id TEXT    NOT NULL
      ) STRICT;
    `,
  },
  {
    version: 6,
    description: 'the event log: every lifecycle change with an id increasing in commit order, never reused (AUTOINCREMENT)',
    // No foreign keys: events outlive what they name (pruned on their own schedule), and a
    // runtime's records are never deleted anyway.
    sql: `
      CREATE TABLE events (
        event_id      INTEGER PRIMARY KEY AUTOINCREMENT,
        type          TEXT    NOT NULL,
        at_ms         INTEGER NOT NULL,
        runtime_id    TEXT,
        checkpoint_id TEXT,
        data          TEXT    NOT NULL
      ) STRICT;
      CREATE INDEX events_by_runtime ON events (runtime_id, event_id);
      CREATE INDEX events_by_time ON events (at_ms);
    `,
  },
  {
    version: 7,
    description: "runtimes by home node: GET /nodes counts each node's open runtimes without reading them all",
    sql: `
      CREATE INDEX sessions_by_home_node ON sessions (home_node_id) WHERE home_node_id IS NOT NULL AND status <> 'closed';
    `,
  },
  {
    version: 8,
    description: "lifecycle policies: a checkpoint's pin and last use (never written by its upsert), a runtime's own retention and its TTL, and the checkpoints a retention pass reads",
    sql: `
      ALTER TABLE checkpoints ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0 CHECK (pinned IN (0, 1));
      ALTER TABLE checkpoints ADD COLUMN last_used_at_ms INTEGER;
      ALTER TABLE sessions ADD COLUMN retention TEXT;
      ALTER TABLE sessions ADD COLUMN expires_at_ms INTEGER;
      CREATE INDEX checkpoints_snapshotted ON checkpoints (checkpoint_id) WHERE ref_provider_snapshot_id IS NOT NULL;
    `,
  },
  {
    version: 9,
    description: "content manifests: a checkpoint's manifest root, and the content-addressed tree objects it names",
    // No foreign key from manifest_root: tree objects are shared by every checkpoint naming
    // them, inserted-or-ignored with the checkpoint, and never deleted.
    sql: `
      ALTER TABLE checkpoints ADD COLUMN manifest_root TEXT;
      CREATE TABLE tree_objects (
        hash TEXT NOT NULL PRIMARY KEY,
        body BLOB NOT NULL
      ) STRICT, WITHOUT ROWID;
    `,
  },
  {
    version: 10,
    description: 'webhooks: a cursor into the event log per webhook and a log of delivery attempts (pruned with the events)',
    sql: `
      CREATE TABLE webhook_cursors (
        webhook_id         TEXT    NOT NULL PRIMARY KEY,
        after_event_id     INTEGER NOT NULL,
        last_success_at_ms INTEGER,
        last_failure_at_ms INTEGER,
        failing            INTEGER NOT NULL CHECK (failing IN (0, 1))
      ) STRICT;
      CREATE TABLE webhook_deliveries (
        delivery_id      INTEGER PRIMARY KEY AUTOINCREMENT,
        webhook_id       TEXT    NOT NULL,
        event_id         INTEGER NOT NULL,
        attempt          INTEGER NOT NULL,
        outcome          TEXT    NOT NULL,
        status_code      INTEGER,
        error_code       TEXT,
        response_excerpt TEXT,
        duration_ms      INTEGER NOT NULL,
        at_ms            INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX webhook_deliveries_by_webhook ON webhook_deliveries (webhook_id, delivery_id);
      CREATE INDEX webhook_deliveries_by_time ON webhook_deliveries (at_ms);
    `,
  },
  {
    version: 11,
    description: "idle auto-pause: a runtime's own idle pause and auto-resume settings, and its last activity (never written by its upsert)",
    sql: `
      ALTER TABLE sessions ADD COLUMN idle_pause_after_ms INTEGER;
      ALTER TABLE sessions ADD COLUMN auto_resume INTEGER CHECK (auto_resume IN (0, 1));
      ALTER TABLE sessions ADD COLUMN last_active_at_ms INTEGER;
    `,
  },
  {
    version: 12,
    description: "verified restores: a runtime's own choice whether checkout and resume verify the restored workspace (null: the default)",
    sql: `
      ALTER TABLE sessions ADD COLUMN verify INTEGER CHECK (verify IN (0, 1));
    `,
  },
  {
    version: 13,
    description: "background processes: how many processes of the backend's commands ran as a checkpoint's snapshot was taken (only 0 lets a runtime be clean), and whether a runtime's backend is known to run nothing (no exec since)",
    sql: `
      ALTER TABLE checkpoints ADD COLUMN ref_background_processes INTEGER CHECK (ref_background_processes >= 0);
      ALTER TABLE sessions ADD COLUMN backend_nothing_running INTEGER CHECK (backend_nothing_running IN (0, 1));
    `,
  },
  {
    version: 14,
    description: 'stored API keys: created and revoked at run time, found by the SHA-256 of their token (never the token); the key that opened a runtime (keys with opened_runtimes reach those and their branches)',
    sql: `
      CREATE TABLE api_keys (
        name          TEXT    NOT NULL PRIMARY KEY,
        token_sha256  TEXT    NOT NULL UNIQUE,
        scopes        TEXT    NOT NULL,
        expires_at_ms INTEGER,
        runtimes      TEXT,
        conversations TEXT,
        opened_runtimes INTEGER NOT NULL CHECK (opened_runtimes IN (0, 1)),
        created_at_ms INTEGER NOT NULL
      ) STRICT;
      ALTER TABLE sessions ADD COLUMN opened_by_key TEXT;
    `,
  },
];

/** The schema version this code writes and the newest it can open. */
export const LATEST_SCHEMA_VERSION = SCHEMA_MIGRATIONS.at(-1)?.version ?? 0;
