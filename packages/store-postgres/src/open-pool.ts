import pg from 'pg';
import { POSTGRES_STORE_DEFAULTS, type PostgresStoreSettings, type ResolvedPostgresStoreSettings } from './postgres-store-settings';
import { assertSchemaName } from './sql-names';

const INT8_OID = 20;

/**
 * BIGINT columns (milliseconds, counts) come back as numbers, not strings: every value the
 * store keeps there is far below 2^53.
 */
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID && format !== 'binary' ? Number : pg.types.getTypeParser(oid, format ?? 'text')) as pg.CustomTypesConfig['getTypeParser'],
};

function positiveInteger(value: number, key: string): number {
  if (!Number.isSafeInteger(value) || value < 1) throw new TypeError(`${key} must be a positive integer, got ${String(value)}`);
  return value;
}

/** Checks the settings (naming the offending key) and fills in the defaults. */
export function resolveSettings(settings: PostgresStoreSettings): ResolvedPostgresStoreSettings {
  if (typeof settings.url !== 'string' || settings.url === '') throw new TypeError('url must name the database (postgres://…)');
  return {
    url: settings.url,
    schema: assertSchemaName(settings.schema ?? POSTGRES_STORE_DEFAULTS.schema),
    poolSize: positiveInteger(settings.poolSize ?? POSTGRES_STORE_DEFAULTS.poolSize, 'pool_size'),
    statementTimeoutMs: positiveInteger(settings.statementTimeoutMs ?? POSTGRES_STORE_DEFAULTS.statementTimeoutMs, 'statement_timeout_ms'),
    connectTimeoutMs: positiveInteger(settings.connectTimeoutMs ?? POSTGRES_STORE_DEFAULTS.connectTimeoutMs, 'connect_timeout_ms'),
  };
}

/** A pool on `settings.url`; opens no connection until the first query. */
export function openPool(settings: ResolvedPostgresStoreSettings): pg.Pool {
  return new pg.Pool({
    connectionString: settings.url,
    max: settings.poolSize,
    statement_timeout: settings.statementTimeoutMs,
    connectionTimeoutMillis: settings.connectTimeoutMs,
    application_name: 'runtimectl',
    types,
  });
}
