import type Database from 'better-sqlite3';
import { SCHEMA_MIGRATIONS, type SchemaMigration } from './schema-migrations';
import { NotARuntimectlStoreError, SchemaVersionTooNewError } from './store-schema-errors';

/** `PRAGMA application_id` of a runtimectl store: "rtcl", so foreign databases are recognised. */
export const RUNTIMECTL_APPLICATION_ID = 0x7274636c;

export interface MigrationOutcome {
  /** The version found when the file was opened (0: a new, empty file). */
  fromVersion: number;
  toVersion: number;
}

function readVersions(db: Database.Database): { version: number; applicationId: number } {
  return {
    version: db.pragma('user_version', { simple: true }) as number,
    applicationId: db.pragma('application_id', { simple: true }) as number,
  };
}

function assertOurs(db: Database.Database, path: string, applicationId: number, version: number): void {
  if (applicationId !== 0 && applicationId !== RUNTIMECTL_APPLICATION_ID) {
    throw new NotARuntimectlStoreError(path, `its application_id is 0x${applicationId.toString(16)}`);
  }
  if (applicationId === 0 && version === 0) {
    const tables = db.prepare("SELECT count(*) AS n FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%'").get() as { n: number };
    if (tables.n > 0) throw new NotARuntimectlStoreError(path, 'it already holds tables but records no runtimectl schema');
  }
}

function assertConsecutive(migrations: readonly SchemaMigration[]): void {
  migrations.forEach((migration, index) => {
    if (migration.version !== index + 1) {
      throw new Error(`schema migration #${index} has version ${migration.version}; versions must be 1, 2, 3… in order`);
    }
  });
}

/**
 * Refuses, before anything is written, a database this code must not touch: a newer schema
 * (SchemaVersionTooNewError, naming both versions) or a foreign database
 * (NotARuntimectlStoreError). Returns the version found.
 */
export function assertSchemaOpenable(
  db: Database.Database,
  path: string,
  migrations: readonly SchemaMigration[] = SCHEMA_MIGRATIONS,
): number {
  const latest = migrations.at(-1)?.version ?? 0;
  const seen = readVersions(db);
  assertOurs(db, path, seen.applicationId, seen.version);
  if (seen.version > latest) throw new SchemaVersionTooNewError(path, seen.version, latest);
  return seen.version;
}

/**
 * Brings the database to the newest schema in `migrations`: a new file gets every migration,
 * an older one the missing ones, all pending migrations plus the version bump in ONE immediate
 * transaction (a crash or a failing migration leaves the old version intact, and two processes
 * opening the same file cannot both migrate). Refuses what `assertSchemaOpenable` refuses.
 */
export function migrateSchema(
  db: Database.Database,
  path: string,
  migrations: readonly SchemaMigration[] = SCHEMA_MIGRATIONS,
): MigrationOutcome {
  assertConsecutive(migrations);
  const latest = migrations.at(-1)?.version ?? 0;
  const seen = assertSchemaOpenable(db, path, migrations);
  if (seen === latest) return { fromVersion: latest, toVersion: latest };

  const migrate = db.transaction((): MigrationOutcome => {
    // Re-read under the write lock: another process may have migrated since we looked.
    const current = assertSchemaOpenable(db, path, migrations);
    for (const migration of migrations) {
      if (migration.version > current) db.exec(migration.sql);
    }
    db.pragma(`application_id = ${RUNTIMECTL_APPLICATION_ID}`);
    db.pragma(`user_version = ${latest}`);
    return { fromVersion: current, toVersion: latest };
  });
  return migrate.immediate();
}
