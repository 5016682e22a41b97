import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sessionRecord } from '@runtimectl/testkit';
import { createSqliteStore } from '../src/index';
import { temporaryDirectory } from './temp-directory';

describe('SQLite leases live in the connection, not in the file', () => {
  let directory: ReturnType<typeof temporaryDirectory>;
  let path: string;
  beforeEach(() => {
    directory = temporaryDirectory();
    path = join(directory.path, 'runtimectl.db');
  });
  afterEach(() => directory.remove());

  it('granting, renewing and releasing leases writes nothing to the database file (no fsync)', async () => {
    const store = createSqliteStore({ path });
    const observer = new Database(path, { readonly: true });
    try {
      await store.commit({ sessions: [sessionRecord('rt-1')] });
      // data_version changes for a connection whenever ANOTHER connection commits to the file.
      const before = observer.pragma('data_version', { simple: true });
      const grant = await store.acquireLease({ runtimeId: 'rt-1', holderId: 'node-a', mode: 'exclusive', ttlMs: 60_000 });
      if (!grant.granted) throw new Error('not granted');
      await store.renewLeases('node-a', 60_000);
      await store.releaseLease(grant.fence);
      expect(observer.pragma('data_version', { simple: true })).toBe(before);
      await store.commit({ sessions: [sessionRecord('rt-1', { lastError: 'written' })] });
      expect(observer.pragma('data_version', { simple: true })).not.toBe(before);
    } finally {
      observer.close();
      await store.close();
    }
  });

  it('a lease ends with the store that granted it: a store reopened on the file grants the runtime again', async () => {
    const first = createSqliteStore({ path });
    const held = await first.acquireLease({ runtimeId: 'rt-1', holderId: 'node-a', mode: 'exclusive', ttlMs: 60_000 });
    expect(held.granted).toBe(true);
    await first.close();
    const second = createSqliteStore({ path });
    try {
      expect(await second.listBusyRuntimeIds()).toStrictEqual([]);
      expect((await second.acquireLease({ runtimeId: 'rt-1', holderId: 'node-a', mode: 'exclusive', ttlMs: 60_000 })).granted).toBe(true);
    } finally {
      await second.close();
    }
  });
});
