import { createTestSchema, type TestSchema } from '@runtimectl/testkit/postgres';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { LATEST_SCHEMA_VERSION, NotARuntimectlSchemaError, SchemaVersionTooNewError, openPostgresStore } from '../src/index';
import { migrateSchema } from '../src/migrate-schema';

let schema: TestSchema;
beforeEach(async () => {
  schema = await createTestSchema('migration');
});
afterEach(() => schema.drop());

async function sql(text: string, values: unknown[] = []) {
  const client = new pg.Client(schema.url);
  await client.connect();
  try {
    return (await client.query(text, values)).rows;
  } finally {
    await client.end();
  }
}

describe('schema migrations', () => {
  test('a new schema gets every migration, one runtimectl_schema row per version', async () => {
    const store = await openPostgresStore({ url: schema.url, schema: schema.schema });
    await store.close();
    expect(store.migration).toEqual({ fromVersion: 0, toVersion: LATEST_SCHEMA_VERSION });
    const rows = await sql(`SELECT version FROM ${schema.schema}.runtimectl_schema ORDER BY version`);
    expect(rows.map((row) => row.version)).toEqual(Array.from({ length: LATEST_SCHEMA_VERSION }, (_, index) => index + 1));
  });

  test('a schema that does not exist yet is created', async () => {
    await schema.drop();
    const store = await openPostgresStore({ url: schema.url, schema: schema.schema });
    await store.close();
    expect(store.migration.toVersion).toBe(LATEST_SCHEMA_VERSION);
  });

  test('eight stores starting at once on one empty schema: exactly one migrates, all open and see the same tables', async () => {
    const stores = await Promise.all(
      Array.from({ length: 8 }, () => openPostgresStore({ url: schema.url, schema: schema.schema, poolSize: 1 })),
    );
    try {
      expect(stores.filter((store) => store.migration.fromVersion === 0)).toHaveLength(1);
      expect(stores.every((store) => store.migration.toVersion === LATEST_SCHEMA_VERSION)).toBe(true);
      await stores[0]!.commit({ intents: [{ intentId: 'i-1', kind: 'backend', providerId: 'p', runtimeId: 'rt', backendId: 'b', createdAtMs: 1 }] });
      for (const store of stores) expect(await store.listIntents()).toHaveLength(1);
    } finally {
      await Promise.all(stores.map((store) => store.close()));
    }
    expect(await sql(`SELECT count(*)::int AS n FROM ${schema.schema}.runtimectl_schema`)).toEqual([{ n: LATEST_SCHEMA_VERSION }]);
  });

  test('a schema written by a newer runtimectl is refused with both versions named, and left unchanged', async () => {
    await (await openPostgresStore({ url: schema.url, schema: schema.schema })).close();
    await sql(`INSERT INTO ${schema.schema}.runtimectl_schema (version, description) VALUES ($1, 'from the future')`, [LATEST_SCHEMA_VERSION + 1]);
    const opening = openPostgresStore({ url: schema.url, schema: schema.schema });
    await expect(opening).rejects.toSatisfy((error: unknown) => SchemaVersionTooNewError.isInstance(error));
    await expect(opening).rejects.toThrow(
      `has schema version ${LATEST_SCHEMA_VERSION + 1}, but this runtimectl understands versions up to ${LATEST_SCHEMA_VERSION}`,
    );
    const rows = await sql(`SELECT max(version) AS version FROM ${schema.schema}.runtimectl_schema`);
    expect(rows[0].version).toBe(LATEST_SCHEMA_VERSION + 1);
  });

  test('a schema holding other tables and no runtimectl_schema is refused and left alone', async () => {
    await sql(`CREATE TABLE ${schema.schema}.invoices (id int)`);
    await expect(openPostgresStore({ url: schema.url, schema: schema.schema })).rejects.toSatisfy((error: unknown) =>
      NotARuntimectlSchemaError.isInstance(error),
    );
    const tables = await sql('SELECT tablename FROM pg_tables WHERE schemaname = $1', [schema.schema]);
    expect(tables.map((row) => row.tablename)).toEqual(['invoices']);
  });

  test('a failing migration leaves the schema at its old version, with none of its changes', async () => {
    const pool = new pg.Pool({ connectionString: schema.url, max: 1 });
    try {
      const first = { version: 1, description: 'one', sql: 'CREATE TABLE one (id int)' };
      const client = await pool.connect();
      try {
        await migrateSchema(client, schema.schema, [first]);
        const broken = [first, { version: 2, description: 'two', sql: 'CREATE TABLE two (id int); SELECT no_such_function()' }];
        await expect(migrateSchema(client, schema.schema, broken)).rejects.toThrow(/no_such_function/);
      } finally {
        client.release();
      }
    } finally {
      await pool.end();
    }
    const tables = await sql('SELECT tablename FROM pg_tables WHERE schemaname = $1 ORDER BY tablename', [schema.schema]);
    expect(tables.map((row) => row.tablename)).toEqual(['one', 'runtimectl_schema']);
    expect(await sql(`SELECT version FROM ${schema.schema}.runtimectl_schema`)).toEqual([{ version: 1 }]);
  });

  test('reopening a current schema migrates nothing', async () => {
    await (await openPostgresStore({ url: schema.url, schema: schema.schema })).close();
    const again = await openPostgresStore({ url: schema.url, schema: schema.schema });
    await again.close();
    expect(again.migration).toEqual({ fromVersion: LATEST_SCHEMA_VERSION, toVersion: LATEST_SCHEMA_VERSION });
  });
});
