import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sessionRecord } from '@runtimectl/testkit';
import { createSqliteStore, type SqliteRuntimeStore } from '../src/index';
import { temporaryDirectory } from './temp-directory';

const PACKAGE_DIRECTORY = fileURLToPath(new URL('..', import.meta.url));
const WRITER = fileURLToPath(new URL('./fixtures/commit-then-die.mjs', import.meta.url));

/** Resolves when `child` has printed `text` on stdout; keeps draining its stdout afterwards. */
function printed(child: ChildProcess, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      if (seen.includes(text)) resolve();
    });
    child.on('close', () => reject(new Error(`the child exited without printing ${text}`)));
  });
}

/** Another process that takes the write lock, prints "locked", holds it `holdMs`, then commits. */
function lockHolder(path: string, holdMs: number): ChildProcess {
  const script = `
    const Database = require('better-sqlite3');
    const db = new Database(process.argv[1]);
    db.exec('BEGIN IMMEDIATE');
    db.prepare("UPDATE sessions SET last_error = 'held' WHERE runtime_id = 'rt-seed'").run();
    process.stdout.write('locked\\n');
    setTimeout(() => { db.exec('COMMIT'); db.close(); }, Number(process.argv[2]));`;
  return spawn(process.execPath, ['-e', script, path, String(holdMs)], { cwd: PACKAGE_DIRECTORY, stdio: ['ignore', 'pipe', 'inherit'] });
}

describe('concurrent access (WAL): readers never wait for the writer', () => {
  let directory: ReturnType<typeof temporaryDirectory>;
  let path: string;
  let store: SqliteRuntimeStore;
  const children: ChildProcess[] = [];
  beforeAll(() => {
    if (!existsSync(join(PACKAGE_DIRECTORY, 'dist', 'index.js'))) throw new Error('run `pnpm run build` first: the writer process uses dist/');
  });
  beforeEach(async () => {
    directory = temporaryDirectory();
    path = join(directory.path, 'runtimectl.db');
    store = createSqliteStore({ path });
    await store.commit({ sessions: [sessionRecord('rt-seed')] });
  });
  afterEach(async () => {
    for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await store.close();
    directory.remove();
  });

  it('the store reads the last committed state while another connection holds an open write transaction', async () => {
    const writer = new Database(path);
    writer.exec('BEGIN IMMEDIATE');
    writer.prepare("UPDATE sessions SET status = 'closed' WHERE runtime_id = 'rt-seed'").run();
    const startedAt = performance.now();
    expect((await store.getSession('rt-seed'))?.status).toBe('idle');
    expect(await store.countSessionsByStatus()).toMatchObject({ idle: 1, closed: 0 });
    expect(performance.now() - startedAt).toBeLessThan(1_000);
    writer.exec('COMMIT');
    writer.close();
    expect((await store.getSession('rt-seed'))?.status).toBe('closed');
  });

  it('a reader inside a read transaction keeps its snapshot while the store commits', async () => {
    const reader = new Database(path, { readonly: true });
    reader.exec('BEGIN');
    const count = reader.prepare('SELECT count(*) AS n FROM sessions');
    expect(count.get()).toStrictEqual({ n: 1 });
    await store.commit({ sessions: [sessionRecord('rt-new')] });
    expect(count.get(), 'the open read transaction still sees its snapshot').toStrictEqual({ n: 1 });
    reader.exec('COMMIT');
    expect(count.get()).toStrictEqual({ n: 2 });
    reader.close();
  });

  it('reads in this process succeed throughout while another process commits, and never go backwards or see half a batch', async () => {
    const writer = spawn(process.execPath, [WRITER, path, 'full', 'loop'], { stdio: ['ignore', 'pipe', 'inherit'] });
    children.push(writer);
    await printed(writer, 'ack 3');
    let previous = 0;
    let first: number | undefined;
    for (let read = 0; read < 300; read += 1) {
      const counts = await store.countSessionsByStatus();
      const total = counts.idle + counts.paused;
      expect(total).toBeGreaterThanOrEqual(previous);
      previous = total;
      first ??= total;
      const { items } = await store.listSessions({ limit: 5, status: 'paused', cursor: 'rt-' });
      for (const session of items) expect(await store.getCheckpoint(session.headCheckpointId!)).toBeDefined();
    }
    expect(previous - first!, 'the other process kept committing while this one read').toBeGreaterThan(5);
    expect(writer.exitCode, 'the writer was still running').toBeNull();
  });

  it('a commit waits (busy_timeout) for another process to release the write lock, then succeeds', async () => {
    const holder = lockHolder(path, 300);
    children.push(holder);
    await printed(holder, 'locked');
    const startedAt = performance.now();
    await store.commit({ sessions: [sessionRecord('rt-after-wait')] });
    expect(performance.now() - startedAt).toBeGreaterThan(100);
    expect((await store.getSession('rt-seed'))?.lastError).toBe('held');
    expect(await store.getSession('rt-after-wait')).toBeDefined();
  });

  it('with a short busy timeout the commit fails as a whole instead of waiting', async () => {
    const impatient = createSqliteStore({ path, busyTimeoutMs: 20 });
    try {
      const holder = lockHolder(path, 2_000);
      children.push(holder);
      await printed(holder, 'locked');
      await expect(impatient.commit({ sessions: [sessionRecord('rt-impatient')] })).rejects.toThrow(/locked|busy/i);
      holder.kill('SIGKILL');
      await once(holder, 'close');
      expect(await impatient.getSession('rt-impatient')).toBeUndefined();
    } finally {
      await impatient.close();
    }
  });
});
