export { openPostgresStore } from './open-postgres-store';
export { PostgresRuntimeStore } from './postgres-runtime-store';
export { POSTGRES_STORE_DEFAULTS, type PostgresStoreSettings } from './postgres-store-settings';
export type { MigrationOutcome } from './migrate-schema';
export { SCHEMA_MIGRATIONS, LATEST_SCHEMA_VERSION, type SchemaMigration } from './schema-migrations';
export { SchemaVersionTooNewError, NotARuntimectlSchemaError } from './store-schema-errors';
export { StoreStartError, describeTarget } from './start-failure';
export { SCHEMA_NAME as POSTGRES_SCHEMA_NAME, SCHEMA_NAME_RULE as POSTGRES_SCHEMA_NAME_RULE } from './sql-names';
