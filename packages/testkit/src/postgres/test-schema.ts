import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import './postgres-global-setup';

/** The run's PostgreSQL (see `setup`); fails clearly when the package did not wire the global setup. */
export function testDatabaseUrl(): string {
  const url = inject('runtimectlTestDatabaseUrl');
  if (!url) throw new Error("no test PostgreSQL: add globalSetup re-exporting `setup` from '@runtimectl/testkit/postgres' to vitest.config");
  return url;
}

/** A fresh, empty schema on the run's PostgreSQL, and a function that drops it with everything in it. */
export interface TestSchema {
  url: string;
  schema: string;
  drop(): Promise<void>;
}

/** A schema is made or dropped in milliseconds; a server that does not answer fails the caller instead of holding it. */
const SCHEMA_TIMEOUT_MS = 30_000;

async function run(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: SCHEMA_TIMEOUT_MS, query_timeout: SCHEMA_TIMEOUT_MS });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * Creates `<prefix>_<16 hex>` (lower case, so it needs no quoting) on `url` (default: the run's
 * server). Give each test file, or each test, its own: they then never see each other's rows.
 */
export async function createTestSchema(prefix = 't', url = testDatabaseUrl()): Promise<TestSchema> {
  const schema = `${prefix.toLowerCase().replace(/[^a-z0-9_]/g, '_')}_${randomBytes(8).toString('hex')}`;
  await run(url, `CREATE SCHEMA ${schema}`);
  return { url, schema, drop: () => run(url, `DROP SCHEMA IF EXISTS ${schema} CASCADE`) };
}
