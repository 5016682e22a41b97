export { createSqliteStore, SqliteRuntimeStore, type SqliteStoreDiagnostics } from './sqlite-runtime-store';
export type { SqliteStoreSettings } from './open-database';
export type { MigrationOutcome } from './migrate-schema';
export { SCHEMA_MIGRATIONS, LATEST_SCHEMA_VERSION, type SchemaMigration } from './schema-migrations';
export { SchemaVersionTooNewError, NotARuntimectlStoreError } from './store-schema-errors';
