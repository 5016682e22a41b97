import { createTestSchema } from '@runtimectl/testkit/postgres';
import { openPostgresStore, type PostgresStoreSettings } from '../src/index';

/**
 * A store on a fresh schema of the run's PostgreSQL, `reopen` for a second store on the same
 * schema, and `cleanup` dropping the schema.
 */
export async function storeOnFreshSchema(settings: Partial<PostgresStoreSettings> = {}) {
  const { url, schema, drop } = await createTestSchema('store');
  const open = () => openPostgresStore({ url, schema, poolSize: 4, ...settings });
  return { store: await open(), reopen: open, cleanup: drop, url, schema };
}
