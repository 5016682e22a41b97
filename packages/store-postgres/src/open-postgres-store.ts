import { PostgresRuntimeStore } from './postgres-runtime-store';
import { migrateSchema } from './migrate-schema';
import { openPool, resolveSettings } from './open-pool';
import { PoolDatabase } from './pool-database';
import type { PostgresStoreSettings } from './postgres-store-settings';
import { describeStartFailure } from './start-failure';

/**
 * Opens the store: checks the settings, connects, and brings the schema up to date under the
 * migration lock (several daemons may start at once). Fails with ONE clear line when the
 * server cannot be reached or refuses the login (StoreStartError; the password is never in
 * it), and with SchemaVersionTooNewError / NotARuntimectlSchemaError for a schema it must not
 * touch. The pool is closed again on any failure.
 */
export async function openPostgresStore(settings: PostgresStoreSettings): Promise<PostgresRuntimeStore> {
  const resolved = resolveSettings(settings);
  const pool = openPool(resolved);
  const db = new PoolDatabase(pool);
  try {
    const client = await pool.connect().catch((error: unknown) => {
      throw describeStartFailure(error, resolved.url);
    });
    try {
      const migration = await migrateSchema(client, resolved.schema);
      return new PostgresRuntimeStore(db, resolved.schema, migration);
    } finally {
      client.release();
    }
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw error;
  }
}
