import type { SchemaMigration } from '@runtimectl/core';

// The version a step records is a row of `runtimectl_schema`. PostgreSQL DDL is transactional,
// so a step and its row commit together. `sql` names tables unqualified: it runs with
// `search_path` set to the store's schema.
export type { SchemaMigration };

/**
 * Every schema version this code understands, oldest first. Version 1 has the same tables,
 * columns and indexes as store-sqlite's schema (its version 3), so both stores hold the same
 * records: ids and every text a lookup orders on are `COLLATE "C"` (byte order, whatever the
 * database's locale); foreign keys are DEFERRABLE INITIALLY DEFERRED
 * (a batch may name a checkpoint before the session that owns it; the check runs at COMMIT);
 * JSON documents are TEXT (kept byte for byte); milliseconds are BIGINT.
 */
export const SCHEMA_MIGRATIONS: readonly SchemaMigration[] = [
  {
    version: 1,
    description: 'runtimes, checkpoints, provider intents and Idempotency-Key records, with an index for every lookup',
    sql: `
      CREATE TABLE sessions (
        runtime_id                 TEXT COLLATE "C" NOT NULL PRIMARY KEY,
        conversation_id            TEXT COLLATE "C" NOT NULL,
        sender_id                  TEXT COLLATE "C" NOT NULL,
        status                     TEXT COLLATE "C" NOT NULL,
        provider_id                TEXT COLLATE "C" NOT NULL,
        provider_options           TEXT    NOT NULL,
        backend_id                 TEXT COLLATE "C",
        backend_provider_id        TEXT COLLATE "C",
        backend_resource           TEXT,
        backend_source_snapshot_id TEXT COLLATE "C",
        session_state              TEXT    NOT NULL,
        metadata                   TEXT    NOT NULL,
        parent_runtime_id          TEXT COLLATE "C" REFERENCES sessions (runtime_id) DEFERRABLE INITIALLY DEFERRED,
        forked_from_checkpoint_id  TEXT COLLATE "C",
        head_checkpoint_id         TEXT COLLATE "C",
        paused_checkpoint_id       TEXT COLLATE "C",
        last_error                 TEXT,
        keep_snapshots             INTEGER NOT NULL CHECK (keep_snapshots IN (0, 1)),
        created_at_ms              BIGINT  NOT NULL,
        updated_at_ms              BIGINT  NOT NULL,
        CHECK ((backend_id IS NULL) = (backend_provider_id IS NULL)),
        CHECK ((backend_id IS NULL) = (backend_resource IS NULL))
      );

      CREATE TABLE checkpoints (
        checkpoint_id               TEXT COLLATE "C" NOT NULL PRIMARY KEY,
        runtime_id                  TEXT COLLATE "C" NOT NULL REFERENCES sessions (runtime_id) DEFERRABLE INITIALLY DEFERRED,
        parent_checkpoint_id        TEXT COLLATE "C" REFERENCES checkpoints (checkpoint_id) DEFERRABLE INITIALLY DEFERRED,
        kind                        TEXT COLLATE "C" NOT NULL,
        name                        TEXT,
        metadata                    TEXT    NOT NULL,
        created_at_ms               BIGINT  NOT NULL,
        session                     TEXT    NOT NULL,
        ref_id                      TEXT COLLATE "C",
        ref_provider_id             TEXT COLLATE "C",
        ref_source_backend_id       TEXT COLLATE "C",
        ref_provider_snapshot_id    TEXT COLLATE "C",
        ref_provider_snapshot_names TEXT,
        ref_snapshot_deleted_at_ms  BIGINT,
        ref_created_at_ms           BIGINT,
        CHECK ((ref_id IS NULL) = (ref_provider_id IS NULL)),
        CHECK ((ref_id IS NULL) = (ref_source_backend_id IS NULL)),
        CHECK ((ref_id IS NULL) = (ref_provider_snapshot_names IS NULL)),
        CHECK ((ref_id IS NULL) = (ref_created_at_ms IS NULL))
      );

      -- The session -> checkpoint keys, once both tables exist.
      ALTER TABLE sessions
        ADD FOREIGN KEY (forked_from_checkpoint_id) REFERENCES checkpoints (checkpoint_id) DEFERRABLE INITIALLY DEFERRED,
        ADD FOREIGN KEY (head_checkpoint_id) REFERENCES checkpoints (checkpoint_id) DEFERRABLE INITIALLY DEFERRED,
        ADD FOREIGN KEY (paused_checkpoint_id) REFERENCES checkpoints (checkpoint_id) DEFERRABLE INITIALLY DEFERRED;

      CREATE INDEX sessions_by_status ON sessions (status, runtime_id);
      CREATE INDEX sessions_by_parent ON sessions (parent_runtime_id, runtime_id) WHERE parent_runtime_id IS NOT NULL;
      CREATE INDEX sessions_by_backend ON sessions (backend_id, runtime_id) WHERE backend_id IS NOT NULL;
      CREATE INDEX sessions_by_source_snapshot ON sessions (backend_provider_id, backend_source_snapshot_id, runtime_id)
        WHERE backend_source_snapshot_id IS NOT NULL;
      CREATE INDEX sessions_by_backend_provider ON sessions (backend_provider_id, runtime_id) WHERE backend_provider_id IS NOT NULL;
      CREATE INDEX sessions_by_backend_provider_status ON sessions (backend_provider_id, status, runtime_id)
        WHERE backend_provider_id IS NOT NULL;
      -- Referencing columns of the checkpoint keys: a checkpoint's delete or key check finds them by index.
      CREATE INDEX sessions_by_head ON sessions (head_checkpoint_id) WHERE head_checkpoint_id IS NOT NULL;
      CREATE INDEX sessions_by_paused_head ON sessions (paused_checkpoint_id) WHERE paused_checkpoint_id IS NOT NULL;
      CREATE INDEX sessions_by_fork_point ON sessions (forked_from_checkpoint_id) WHERE forked_from_checkpoint_id IS NOT NULL;

      CREATE INDEX checkpoints_by_runtime ON checkpoints (runtime_id, checkpoint_id);
      CREATE INDEX checkpoints_by_snapshot ON checkpoints (ref_provider_id, ref_provider_snapshot_id, checkpoint_id)
        WHERE ref_provider_snapshot_id IS NOT NULL;
      CREATE INDEX checkpoints_by_parent ON checkpoints (parent_checkpoint_id) WHERE parent_checkpoint_id IS NOT NULL;

      -- No foreign key to sessions: an open records its intent before the runtime exists.
      CREATE TABLE intents (
        intent_id     TEXT COLLATE "C" NOT NULL PRIMARY KEY,
        kind          TEXT COLLATE "C" NOT NULL CHECK (kind IN ('backend', 'snapshot')),
        provider_id   TEXT COLLATE "C" NOT NULL,
        runtime_id    TEXT COLLATE "C" NOT NULL,
        backend_id    TEXT COLLATE "C" NOT NULL,
        created_at_ms BIGINT NOT NULL
      );
      CREATE INDEX intents_by_age ON intents (created_at_ms, intent_id);

      CREATE TABLE idempotency_keys (
        key           TEXT COLLATE "C" NOT NULL PRIMARY KEY,
        fingerprint   TEXT    NOT NULL,
        state         TEXT COLLATE "C" NOT NULL CHECK (state IN ('in_flight', 'completed')),
        owner_id      TEXT COLLATE "C" NOT NULL,
        status_code   INTEGER,
        response_body TEXT,
        created_at_ms BIGINT  NOT NULL,
        expires_at_ms BIGINT  NOT NULL
      );
      CREATE INDEX idempotency_keys_by_expiry ON idempotency_keys (expires_at_ms);
    `,
  },
  {
    version: 2,
    description: 'Idempotency-Key records weighed (idempotencyRecordBytes) with a running total, so eviction is bounded work',
    // As store-sqlite's version 4. The trigger function keeps the search_path of the migration
    // (the store's schema): the store's own statements name the schema instead of setting it.
    sql: `
      ALTER TABLE idempotency_keys ADD COLUMN stored_bytes BIGINT NOT NULL DEFAULT 0;
      UPDATE idempotency_keys SET stored_bytes =
        octet_length(key) + octet_length(fingerprint) + coalesce(octet_length(response_body), 0);
      CREATE TABLE idempotency_totals (
        id           INTEGER NOT NULL PRIMARY KEY CHECK (id = 1),
        stored_bytes BIGINT  NOT NULL
      );
      INSERT INTO idempotency_totals (id, stored_bytes) SELECT 1, coalesce(sum(stored_bytes), 0) FROM idempotency_keys;
      CREATE FUNCTION idempotency_keys_weigh() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
      BEGIN
        UPDATE idempotency_totals
          SET stored_bytes = stored_bytes
            + CASE WHEN TG_OP = 'DELETE' THEN 0 ELSE NEW.stored_bytes END
            - CASE WHEN TG_OP = 'INSERT' THEN 0 ELSE OLD.stored_bytes END
          WHERE id = 1;
        RETURN NULL;
      END
      $$;
      CREATE TRIGGER idempotency_keys_weigh AFTER INSERT OR DELETE OR UPDATE OF stored_bytes ON idempotency_keys
        FOR EACH ROW EXECUTE FUNCTION idempotency_keys_weigh();
      CREATE INDEX idempotency_keys_completed_by_age ON idempotency_keys (created_at_ms, key) WHERE state = 'completed';
    `,
  },
  {
    version: 3,
    description: "the fleet: runtime leases with fencing tokens, the node registry, the installation id, a runtime's home node and clean checkpoint, an intent's node",
    // As store-sqlite's version 5, plus the leases: an UNLOGGED table (a crash of PostgreSQL
    // empties it; every fence is then lost and its commit refused, which is safe) whose tokens
    // come from a sequence, and the one-call acquire. Expiry is measured on the database clock
    // (clock_timestamp()), never a node's. The function keeps the migration's search_path.
    sql: `
      ALTER TABLE sessions ADD COLUMN backend_clean_checkpoint_id TEXT COLLATE "C";
      ALTER TABLE sessions ADD COLUMN home_node_id TEXT COLLATE "C";
      ALTER TABLE intents ADD COLUMN node_id TEXT COLLATE "C";

      CREATE TABLE nodes (
        node_id         TEXT COLLATE "C" NOT NULL PRIMARY KEY,
        advertise_url   TEXT,
        version         TEXT   NOT NULL,
        started_at_ms   BIGINT NOT NULL,
        heartbeat_at_ms BIGINT NOT NULL
      );

      CREATE TABLE installation (
        id              INTEGER NOT NULL PRIMARY KEY CHECK (id = 1),
        installation_id TEXT    NOT NULL
      );

      CREATE SEQUENCE runtime_lease_tokens AS BIGINT;
      CREATE UNLOGGED TABLE runtime_leases (
        token      BIGINT NOT NULL PRIMARY KEY,
        runtime_id TEXT COLLATE "C" NOT NULL,
        holder_id  TEXT COLLATE "C" NOT NULL,
        mode       TEXT COLLATE "C" NOT NULL CHECK (mode IN ('shared', 'checkout', 'exclusive')),
        expires_at TIMESTAMPTZ NOT NULL
      );
      CREATE INDEX runtime_leases_by_runtime ON runtime_leases (runtime_id);
      CREATE INDEX runtime_leases_by_holder ON runtime_leases (holder_id);
      CREATE INDEX runtime_leases_by_expiry ON runtime_leases (expires_at);

      -- Grants a lease unless an unexpired one of the runtime conflicts (RuntimeLocks' rules), in
      -- one call: the runtime's advisory lock serialises its acquires; deleting its expired rows
      -- waits for a commit still holding one of them FOR SHARE (its fence check), so a takeover
      -- never interleaves with a late commit of the holder whose lease lapsed. lock_timeout bounds
      -- that wait (SQLSTATE 55P03, answered as a conflict by the store).
      CREATE FUNCTION acquire_runtime_lease(p_runtime_id TEXT, p_holder_id TEXT, p_mode TEXT, p_ttl_ms BIGINT)
        RETURNS TABLE (token TEXT, conflict TEXT)
        LANGUAGE plpgsql SET search_path FROM CURRENT SET lock_timeout = '1s' AS $$
      DECLARE
        found_conflict TEXT;
      BEGIN
        PERFORM pg_advisory_xact_lock(hashtextextended(p_runtime_id, 0));
        DELETE FROM runtime_leases l WHERE l.runtime_id = p_runtime_id AND l.expires_at <= clock_timestamp();
        SELECT CASE
                 WHEN bool_or(l.mode = 'exclusive') THEN 'a control operation is in flight'
                 WHEN p_mode = 'shared' THEN NULL
                 WHEN bool_or(l.mode = 'shared') THEN 'an operation is in flight'
                 WHEN p_mode = 'exclusive' AND bool_or(l.mode = 'checkout') THEN 'a checkout of its checkpoint is in flight'
               END
          INTO found_conflict
          FROM runtime_leases l WHERE l.runtime_id = p_runtime_id;
        IF found_conflict IS NOT NULL THEN
          RETURN QUERY SELECT NULL::TEXT, found_conflict;
          RETURN;
        END IF;
        RETURN QUERY
          INSERT INTO runtime_leases AS l (token, runtime_id, holder_id, mode, expires_at)
          VALUES (nextval('runtime_lease_tokens'), p_runtime_id, p_holder_id, p_mode, clock_timestamp() + p_ttl_ms * interval '1 millisecond')
          RETURNING l.token::TEXT, NULL::TEXT;
      END
      $$;
    `,
  },
  {
    version: 4,
    description: 'the event log: every lifecycle change, ids handed out under one row lock so they become visible in commit order',
    // A sequence would not do: ids taken by concurrent transactions commit in any order, so a
    // reader that saw id 7 could later find a 6 it skipped. The commit that appends events
    // advances event_log's one row instead; its lock, held to COMMIT, makes event-appending
    // commits take turns (short: the rest of the commit is already done when events go last).
    // No foreign keys: events outlive what they name and are pruned on their own schedule.
    sql: `
      CREATE TABLE events (
        event_id      BIGINT NOT NULL PRIMARY KEY,
        type          TEXT COLLATE "C" NOT NULL,
        at_ms         BIGINT NOT NULL,
        runtime_id    TEXT COLLATE "C",
        checkpoint_id TEXT COLLATE "C",
        data          TEXT   NOT NULL
      );
      CREATE INDEX events_by_runtime ON events (runtime_id, event_id);
      CREATE INDEX events_by_time ON events (at_ms);
      CREATE TABLE event_log (
        id            INTEGER NOT NULL PRIMARY KEY CHECK (id = 1),
        last_event_id BIGINT  NOT NULL
      );
      INSERT INTO event_log (id, last_event_id) VALUES (1, 0);
    `,
  },
  {
    version: 5,
    description: "runtimes by home node: GET /nodes counts each node's open runtimes without reading them all",
    sql: `
      CREATE INDEX sessions_by_home_node ON sessions (home_node_id) WHERE home_node_id IS NOT NULL AND status <> 'closed';
    `,
  },
  {
    version: 6,
    description: "lifecycle policies: a checkpoint's pin and last use (never written by its upsert), a runtime's own retention and its TTL, and the checkpoints a retention pass reads",
    sql: `
      ALTER TABLE checkpoints ADD COLUMN pinned BOOLEAN NOT NULL DEFAULT false;
      ALTER TABLE checkpoints ADD COLUMN last_used_at_ms BIGINT;
      ALTER TABLE sessions ADD COLUMN retention TEXT;
      ALTER TABLE sessions ADD COLUMN expires_at_ms BIGINT;
      CREATE INDEX checkpoints_snapshotted ON checkpoints (checkpoint_id) WHERE ref_provider_snapshot_id IS NOT NULL;
    `,
  },
  {
    version: 7,
    description: "content manifests: a checkpoint's manifest root, and the content-addressed tree objects it names",
    // No foreign key from manifest_root: tree objects are shared by every checkpoint naming
    // them, inserted-or-ignored with the checkpoint, and never deleted.
    sql: `
      ALTER TABLE checkpoints ADD COLUMN manifest_root TEXT COLLATE "C";
      CREATE TABLE tree_objects (
        hash TEXT COLLATE "C" NOT NULL PRIMARY KEY,
        body BYTEA NOT NULL
      );
    `,
  },
  {
    version: 8,
    description: 'webhooks: a cursor into the event log per webhook and a log of delivery attempts (pruned with the events)',
    // Delivery ids only order one webhook's attempts for paging: an identity column will do
    // (unlike event ids, no reader follows them as a cursor while others commit).
    sql: `
      CREATE TABLE webhook_cursors (
        webhook_id         TEXT COLLATE "C" NOT NULL PRIMARY KEY,
        after_event_id     BIGINT  NOT NULL,
        last_success_at_ms BIGINT,
        last_failure_at_ms BIGINT,
        failing            BOOLEAN NOT NULL
      );
      CREATE TABLE webhook_deliveries (
        delivery_id      BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        webhook_id       TEXT COLLATE "C" NOT NULL,
        event_id         BIGINT  NOT NULL,
        attempt          INTEGER NOT NULL,
        outcome          TEXT    NOT NULL,
        status_code      INTEGER,
        error_code       TEXT,
        response_excerpt TEXT,
        duration_ms      BIGINT  NOT NULL,
        at_ms            BIGINT  NOT NULL
      );
      CREATE INDEX webhook_deliveries_by_webhook ON webhook_deliveries (webhook_id, delivery_id);
      CREATE INDEX webhook_deliveries_by_time ON webhook_deliveries (at_ms);
    `,
  },
  {
    version: 9,
    description: "idle auto-pause: a runtime's own idle pause and auto-resume settings, and its last activity (never written by its upsert)",
    sql: `
      ALTER TABLE sessions ADD COLUMN idle_pause_after_ms BIGINT;
      ALTER TABLE sessions ADD COLUMN auto_resume INTEGER CHECK (auto_resume IN (0, 1));
      ALTER TABLE sessions ADD COLUMN last_active_at_ms BIGINT;
    `,
  },
  {
    version: 10,
    description: "verified restores: a runtime's own choice whether checkout and resume verify the restored workspace (null: the default)",
    sql: `
      ALTER TABLE sessions ADD COLUMN verify INTEGER CHECK (verify IN (0, 1));
    `,
  },
  {
    version: 11,
    description: "background processes: how many processes of the backend's commands ran as a checkpoint's snapshot was taken (only 0 lets a runtime be clean), and whether a runtime's backend is known to run nothing (no exec since)",
    sql: `
      ALTER TABLE checkpoints ADD COLUMN ref_background_processes INTEGER CHECK (ref_background_processes >= 0);
      ALTER TABLE sessions ADD COLUMN backend_nothing_running INTEGER CHECK (backend_nothing_running IN (0, 1));
    `,
  },
  {
    version: 12,
    description: 'stored API keys: created and revoked at run time, found by the SHA-256 of their token (never the token); the key that opened a runtime (keys with opened_runtimes reach those and their branches)',
    sql: `
      CREATE TABLE api_keys (
        name          TEXT COLLATE "C" NOT NULL PRIMARY KEY,
        token_sha256  TEXT COLLATE "C" NOT NULL UNIQUE,
        scopes        TEXT   NOT NULL,
        expires_at_ms BIGINT,
        runtimes      TEXT,
        conversations TEXT,
        opened_runtimes INTEGER NOT NULL CHECK (opened_runtimes IN (0, 1)),
        created_at_ms BIGINT NOT NULL
      );
      ALTER TABLE sessions ADD COLUMN opened_by_key TEXT;
    `,
  },
];

/** The schema version this code writes and the newest it can open. */
export const LATEST_SCHEMA_VERSION = SCHEMA_MIGRATIONS.at(-1)?.version ?? 0;
