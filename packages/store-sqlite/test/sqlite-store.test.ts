import { LATEST_SCHEMA_VERSION } from '../src/schema-migrations';
import { chmodSync, existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkpointIdOf, checkpointRecord, sessionRecord } from '@runtimectl/testkit';
import { createSqliteStore, SqliteRuntimeStore } from '../src/index';
import { temporaryDirectory } from './temp-directory';

describe('the SQLite store beyond the shared contract', () => {
  let directory: ReturnType<typeof temporaryDirectory>;
  let path: string;
  beforeEach(() => {
    directory = temporaryDirectory();
    path = join(directory.path, 'state', 'nested', 'runtimectl.db');
  });
  afterEach(() => directory.remove());

  it('creates the state directory and runs WAL, synchronous=full, foreign keys and a 5 s busy timeout by default', async () => {
    const store = createSqliteStore({ path });
    expect(existsSync(path)).toBe(true);
    expect(store).toBeInstanceOf(SqliteRuntimeStore);
    expect(store.diagnostics()).toStrictEqual({
      path,
      schemaVersion: LATEST_SCHEMA_VERSION,
      journalMode: 'wal',
      synchronous: 'full',
      foreignKeys: true,
      busyTimeoutMs: 5_000,
    });
    await store.close();
  });

  it('keeps the database, its WAL and its index owner-only (0600) in a new 0700 directory, and tightens an older store\'s at open', async () => {
    const modeOf = (file: string) => statSync(file).mode & 0o777;
    const files = [path, `${path}-wal`, `${path}-shm`];
    const store = createSqliteStore({ path });
    await store.commit({ sessions: [sessionRecord('rt-modes')] });
    expect(files.map(modeOf)).toEqual([0o600, 0o600, 0o600]);
    expect(modeOf(join(directory.path, 'state', 'nested'))).toBe(0o700);
    await store.close();
    for (const file of files.filter((candidate) => existsSync(candidate))) chmodSync(file, 0o644);
    const reopened = createSqliteStore({ path });
    expect(files.filter((candidate) => existsSync(candidate)).map(modeOf)).toEqual(files.filter((candidate) => existsSync(candidate)).map(() => 0o600));
    expect(await reopened.getSession('rt-modes')).toMatchObject({ runtimeId: 'rt-modes' });
    await reopened.close();
  });

  it('synchronous=normal and the busy timeout are taken from the settings', async () => {
    const store = createSqliteStore({ path, synchronous: 'normal', busyTimeoutMs: 250 });
    expect(store.diagnostics()).toMatchObject({ synchronous: 'normal', busyTimeoutMs: 250 });
    await store.close();
  });

  it('a batch naming a runtime that does not exist is refused at commit, with nothing of it applied', async () => {
    const store = createSqliteStore({ path });
    await store.commit({ sessions: [sessionRecord('rt-1')] });
    const batch = {
      sessions: [sessionRecord('rt-1', { headCheckpointId: checkpointIdOf(1) })],
      checkpoints: [checkpointRecord(checkpointIdOf(1), 'rt-1'), checkpointRecord(checkpointIdOf(2), 'rt-missing')],
    };
    await expect(store.commit(batch)).rejects.toThrow(/FOREIGN KEY/);
    expect(await store.getSession('rt-1')).toStrictEqual(sessionRecord('rt-1'));
    expect(await store.getCheckpoint(checkpointIdOf(1))).toBeUndefined();
    await store.close();
  });

  it('a session whose head names a checkpoint that never arrives is refused', async () => {
    const store = createSqliteStore({ path });
    await expect(store.commit({ sessions: [sessionRecord('rt-1', { headCheckpointId: checkpointIdOf(9) })] })).rejects.toThrow(/FOREIGN KEY/);
    expect(await store.getSession('rt-1')).toBeUndefined();
    await store.close();
  });

  it('60 large Idempotency-Key responses, each followed by eviction to 1 MB, leave the database file bounded', async () => {
    const store = createSqliteStore({ path });
    const body = JSON.stringify({ stdout_base64: 'eQp5Cnk'.repeat(20_000) });
    for (let i = 0; i < 60; i += 1) {
      const key = `exec-${i}`;
      const record = { key, fingerprint: 'sha256:x', ownerId: 'd', createdAtMs: 1_000 + i, expiresAtMs: 9e15 };
      await store.claimIdempotencyKey({ ...record, state: 'in_flight', statusCode: null, responseBody: null });
      await store.putIdempotencyRecord({ ...record, state: 'completed', statusCode: 200, responseBody: body });
      await store.evictIdempotencyRecords(1_000_000);
    }
    await store.close();
    // 60 × 140 KB would be 8.4 MB; what is kept is at most 1 MB, and freed pages are reused.
    expect(statSync(path).size + (existsSync(`${path}-wal`) ? statSync(`${path}-wal`).size : 0)).toBeLessThan(3_000_000);
  });

  it('close is idempotent, and the store refuses calls after it', async () => {
    const store = createSqliteStore({ path });
    await store.close();
    await expect(store.close()).resolves.toBeUndefined();
    await expect(store.getSession('rt-1')).rejects.toThrow(/not open/);
  });

  it('an in-memory database works for throwaway use', async () => {
    const store = createSqliteStore({ path: ':memory:' });
    await store.commit({ sessions: [sessionRecord('rt-1')] });
    expect(await store.getSession('rt-1')).toStrictEqual(sessionRecord('rt-1'));
    expect(store.diagnostics()).toMatchObject({ journalMode: 'memory', foreignKeys: true });
    await store.close();
  });
});
