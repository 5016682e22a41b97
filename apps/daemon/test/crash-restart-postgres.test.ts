import { createTestSchema } from '@runtimectl/testkit/postgres';
import { afterAll } from 'vitest';
import { crashRestartTests } from './crash-restart-suite';
import { readPostgresStoreRows } from './store-file-rows';

// The same SIGKILL rounds as crash-restart.test.ts, with the store in PostgreSQL (the run's
// server, a schema of this file's own): every acknowledged operation is there after each kill.
const { url, schema, drop } = await createTestSchema('crash');
afterAll(drop);

crashRestartTests({
  args: ['--store', 'postgres'],
  env: { RUNTIMECTL_DATABASE_URL: url, RUNTIMECTL_STORE_SCHEMA: schema, RUNTIMECTL_FLEET_SECRET: 'crash-restart-postgres-fleet-secret-0123' },
  readRows: () => readPostgresStoreRows(url, schema),
});
