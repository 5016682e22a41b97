import type pg from 'pg';
import { SCHEMA_MIGRATIONS, type SchemaMigration } from './schema-migrations';
import { quoted } from './sql-names';
import { NotARuntimectlSchemaError, SchemaVersionTooNewError } from './store-schema-errors';

export interface MigrationOutcome {
  /** The version found at start (0: a new, empty schema). */
  fromVersion: number;
  toVersion: number;
}

/** First key of the migration's advisory lock ("rtcl"); the second is the schema name's hash. */
const MIGRATION_LOCK_CLASS = 0x7274636c;

function assertConsecutive(migrations: readonly SchemaMigration[]): void {
  migrations.forEach((migration, index) => {
    if (migration.version !== index + 1) {
      throw new Error(`schema migration #${index} has version ${migration.version}; versions must be 1, 2, 3… in order`);
    }
  });
}

/** The version recorded in the schema (0 when it has no tables), refusing a foreign or newer one. */
async function readVersion(client: pg.PoolClient, schema: string, latest: number): Promise<number> {
  const tables = await client.query<{ table_name: string }>('SELECT tablename AS table_name FROM pg_catalog.pg_tables WHERE schemaname = $1', [
    schema,
  ]);
  const names = tables.rows.map((row) => row.table_name);
  if (names.length === 0) return 0;
  if (!names.includes('runtimectl_schema')) throw new NotARuntimectlSchemaError(schema, 'it holds tables but no runtimectl_schema');
  const seen = await client.query<{ version: number | null }>(`SELECT max(version) AS version FROM ${quoted(schema)}.runtimectl_schema`);
  const version = seen.rows[0]?.version ?? 0;
  if (version > latest) throw new SchemaVersionTooNewError(schema, version, latest);
  return version;
}

/**
 * Brings `schema` to the newest version in `migrations`, in ONE transaction holding a
 * transaction-level advisory lock on the schema: of several daemons starting at once against
 * the same database one migrates and the others wait, then find the schema current. Creates
 * the schema when it does not exist. A failing migration leaves the old version intact; a
 * newer or foreign schema is refused before anything is written.
 */
export async function migrateSchema(
  client: pg.PoolClient,
  schema: string,
  migrations: readonly SchemaMigration[] = SCHEMA_MIGRATIONS,
): Promise<MigrationOutcome> {
  assertConsecutive(migrations);
  const latest = migrations.at(-1)?.version ?? 0;
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [MIGRATION_LOCK_CLASS, schema]);
    const current = await readVersion(client, schema, latest);
    if (current < latest) {
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoted(schema)}`);
      await client.query(`SET LOCAL search_path TO ${quoted(schema)}`);
      await client.query(
        'CREATE TABLE IF NOT EXISTS runtimectl_schema (version INTEGER PRIMARY KEY, description TEXT NOT NULL, ' +
          'applied_at TIMESTAMPTZ NOT NULL DEFAULT now())',
      );
      for (const migration of migrations) {
        if (migration.version <= current) continue;
        await client.query(migration.sql);
        await client.query('INSERT INTO runtimectl_schema (version, description) VALUES ($1, $2)', [migration.version, migration.description]);
      }
    }
    await client.query('COMMIT');
    return { fromVersion: current, toVersion: Math.max(current, latest) };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
