import { StoreUnavailableError } from '@runtimectl/core';
import { sessionRecord as session } from '@runtimectl/testkit';
import { startTestPostgres, testDatabaseUrl, type TestPostgres } from '@runtimectl/testkit/postgres';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { StoreStartError, openPostgresStore } from '../src/index';


function withPassword(url: string, password: string): string {
  const parsed = new URL(url);
  parsed.password = password;
  return parsed.toString();
}

describe('starting against a server that refuses or is not there', () => {
  test('a wrong password fails with one line naming host, port and database, never the password', async () => {
    const url = withPassword(testDatabaseUrl(), 'not-the-Secret-123');
    const error = await openPostgresStore({ url }).catch((caught: unknown) => caught);
    expect(StoreStartError.isInstance(error)).toBe(true);
    const message = (error as Error).message;
    expect(message).toMatch(/^could not connect to PostgreSQL at 127\.0\.0\.1:\d+\/postgres: the password was refused$/);
    expect(message).not.toContain('not-the-Secret-123');
  });

  test('an unreachable server fails with one line saying the connection was refused', async () => {
    const url = withPassword('postgres://runtimectl@127.0.0.1:1/app', 'hunter2-secret');
    const error = await openPostgresStore({ url, connectTimeoutMs: 2_000 }).catch((caught: unknown) => caught);
    expect((error as Error).message).toBe('could not connect to PostgreSQL at 127.0.0.1:1/app: connection refused');
    expect((error as Error).message).not.toContain('hunter2');
  });

  test('bad settings are refused naming the key', async () => {
    await expect(openPostgresStore({ url: testDatabaseUrl(), schema: 'Bad-Name' })).rejects.toThrow(/^schema must be a lower-case SQL identifier/);
    await expect(openPostgresStore({ url: testDatabaseUrl(), poolSize: 0 })).rejects.toThrow(/^pool_size must be a positive integer/);
  });
});

describe('the database going away under an open store', () => {
  // A server of its own: stopping the run's shared server would break the other test files.
  let server: TestPostgres;
  beforeAll(async () => {
    server = await startTestPostgres();
  }, 60_000);
  afterAll(() => server?.remove(), 60_000);

  test('reads and commits fail with store_unavailable while it is down, and work again once it is back, with nothing acknowledged lost', async () => {
    const store = await openPostgresStore({ url: server.url, schema: 'faults', connectTimeoutMs: 1_000 });
    try {
      await store.commit({ sessions: [session('rt-before')] });
      await server.stop();
      for (const attempt of [() => store.getSession('rt-before'), () => store.commit({ sessions: [session('rt-during')] })]) {
        const error = await attempt().then(
          () => undefined,
          (caught: unknown) => caught,
        );
        expect(StoreUnavailableError.isInstance(error), String(error)).toBe(true);
        expect((error as StoreUnavailableError).retryAfterMs).toBeGreaterThan(0);
      }
      await server.start();
      await store.commit({ sessions: [session('rt-after')] });
      const page = await store.listSessions({ limit: 10 });
      expect(page.items.map((record) => record.runtimeId)).toEqual(['rt-after', 'rt-before']);
    } finally {
      await store.close();
    }
  }, 60_000);
});
