import { createTestSchema, startTestPostgres, testDatabaseUrl, type TestPostgres, type TestSchema } from '@runtimectl/testkit/postgres';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { callDaemon } from './daemon-http';
import { runtimedRefusal, startRuntimed, type RuntimedProcess } from './runtimed-process';

/** Every node on PostgreSQL needs the fleet's shared secret (fleet.secret_env). */
const FLEET_SECRET = { RUNTIMECTL_FLEET_SECRET: 'postgres-store-test-fleet-secret-0123456789' };

const running: RuntimedProcess[] = [];
const schemas: TestSchema[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((daemon) => daemon.stop()));
  await Promise.all(schemas.splice(0).map((schema) => schema.drop()));
});

async function freshSchema(url?: string): Promise<TestSchema> {
  const schema = await createTestSchema('daemon', url);
  schemas.push(schema);
  return schema;
}

async function startOnPostgres(url: string, schema: string): Promise<RuntimedProcess> {
  const daemon = await startRuntimed(['--store', 'postgres'], { RUNTIMECTL_DATABASE_URL: url, RUNTIMECTL_STORE_SCHEMA: schema, ...FLEET_SECRET });
  running.push(daemon);
  return daemon;
}

const passwordOf = (url: string) => decodeURIComponent(new URL(url).password);
const withPassword = (url: string, password: string) => Object.assign(new URL(url), { password }).toString();

describe('runtimed --store postgres', () => {
  it('starts on the database RUNTIMECTL_DATABASE_URL names, says so without the password, and keeps state across a restart', async () => {
    const { url, schema } = await freshSchema();
    const first = await startOnPostgres(url, schema);
    expect(first.banner).toMatch(new RegExp(`· store: postgres 127\\.0\\.0\\.1:\\d+/postgres schema ${schema} ·`));
    expect(first.banner + first.stderr()).not.toContain(passwordOf(url));
    await callDaemon(first.url, '/runtimes/open', { runtime_id: 'kept', conversation_id: 'c', sender_id: 's' });
    const checkpoint = await callDaemon(first.url, '/runtimes/checkpoint', { runtime_id: 'kept', name: 'one' });
    expect(checkpoint.status).toBe(200);
    await first.stop();

    const second = await startOnPostgres(url, schema);
    expect((await callDaemon(second.url, '/runtimes/kept')).body.head_checkpoint_id).toBe(checkpoint.body.checkpoint_id);
    expect((await callDaemon(second.url, '/runtimes/kept/checkpoints')).body.checkpoints.map((c: { name: string }) => c.name)).toEqual(['one']);
  });

  it('a wrong password stops the start with one line naming the server, never the password', async () => {
    const url = withPassword(testDatabaseUrl(), 'Wrong-Pass-4711');
    const refusal = await runtimedRefusal(['--store', 'postgres'], { RUNTIMECTL_DATABASE_URL: url, ...FLEET_SECRET });
    expect(refusal.code).toBe(1);
    expect(refusal.stderr).toMatch(/^runtimed: could not start: could not connect to PostgreSQL at 127\.0\.0\.1:\d+\/postgres: the password was refused\n$/);
    expect(refusal.stderr + refusal.stdout).not.toContain('Wrong-Pass-4711');
  });

  it('an unreachable server or a missing URL variable stop the start with one line', async () => {
    const unreachable = await runtimedRefusal(['--store', 'postgres'], { RUNTIMECTL_DATABASE_URL: 'postgres://u:Secret-99@127.0.0.1:1/db', ...FLEET_SECRET });
    expect(unreachable.stderr).toBe('runtimed: could not start: could not connect to PostgreSQL at 127.0.0.1:1/db: connection refused\n');
    const missing = await runtimedRefusal(['--store', 'postgres']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(
      'runtimed: store.url_env: environment variable RUNTIMECTL_DATABASE_URL is not set or empty (it holds the PostgreSQL URL)\n',
    );
  });

  it('without the fleet secret a node on PostgreSQL stops at start naming fleet.secret_env, before it touches the database', async () => {
    const refusal = await runtimedRefusal(['--store', 'postgres'], { RUNTIMECTL_DATABASE_URL: 'postgres://u:Secret-99@127.0.0.1:1/db' });
    expect(refusal.code).toBe(2);
    expect(refusal.stderr).toMatch(/^runtimed: fleet\.secret_env: environment variable RUNTIMECTL_FLEET_SECRET is not set or empty; a node on PostgreSQL needs the fleet's shared secret .*\n$/);
  });
});

describe('runtimed --store postgres while its database stops and starts', () => {
  // A server of its own: stopping the run's shared one would break every other test.
  let server: TestPostgres;
  beforeAll(async () => {
    server = await startTestPostgres();
  }, 60_000);
  afterAll(() => server?.remove(), 60_000);

  it('answers 503 store_unavailable with Retry-After while it is down, then serves again by itself with nothing acknowledged lost', async () => {
    const daemon = await startOnPostgres(server.url, 'faults');
    const opened = await callDaemon(daemon.url, '/runtimes/open', { runtime_id: 'before', conversation_id: 'c', sender_id: 's' });
    expect(opened.status).toBe(200);

    await server.stop();
    const during = await Promise.all([
      callDaemon(daemon.url, '/runtimes/before'),
      callDaemon(daemon.url, '/runtimes'),
      callDaemon(daemon.url, '/runtimes/open', { runtime_id: 'during', conversation_id: 'c', sender_id: 's' }),
    ]);
    for (const answer of during) {
      expect(answer.status, answer.text).toBe(503);
      expect(answer.body.code).toBe('store_unavailable');
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(answer.text).not.toContain(passwordOf(server.url));
    }
    expect((await callDaemon(daemon.url, '/health')).status).toBe(200);

    await server.start();
    const after = await callDaemon(daemon.url, '/runtimes/open', { runtime_id: 'after', conversation_id: 'c', sender_id: 's' });
    expect(after.status, after.text).toBe(200);
    const ids = (await callDaemon(daemon.url, '/runtimes')).body.runtimes.map((runtime: { runtime_id: string }) => runtime.runtime_id);
    expect(ids).toContain('before');
    expect(ids).toContain('after');
  });
});
