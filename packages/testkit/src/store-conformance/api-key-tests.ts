import { describe, expect } from 'vitest';
import type { StoredApiKey } from '@runtimectl/core';
import { resolveStoreConformanceOptions, type StoreConformanceOptions } from './store-conformance-options';
import { sessionRecord } from './store-fixtures';
import { storeTest, useStoreHarness } from './store-harness';

const key = (name: string, hashDigit: string, overrides: Partial<StoredApiKey> = {}): StoredApiKey => ({
  name,
  tokenSha256: hashDigit.repeat(64),
  scopes: ['read', 'exec'],
  expiresAtMs: null,
  runtimes: null,
  conversations: null,
  openedRuntimes: false,
  createdAtMs: 1_764_000_000_000,
  ...overrides,
});

/**
 * Stored API keys: created once per name and per token hash, found by the hash, listed by name,
 * deleted by name, durable across a restart, and the same to every node of a fleet.
 */
export function apiKeyTests(options: StoreConformanceOptions): void {
  const resolved = resolveStoreConformanceOptions(options);
  const test = storeTest(resolved);

  describe('stored API keys', () => {
    const harness = useStoreHarness(resolved);

    test('a key reads back whole by the hash of its token, with every field, and survives a restart', async () => {
      const scoped = key('agent-1', 'a', { scopes: ['exec', 'checkpoint'], expiresAtMs: 1_900_000_000_000, runtimes: ['rt-1', 'rt-ü'], conversations: ['c-1'], openedRuntimes: true });
      const open = key('ci', 'b');
      expect(await harness.store.createApiKey(scoped)).toBe(true);
      expect(await harness.store.createApiKey(open)).toBe(true);
      const store = await harness.restart();
      expect(await store.findApiKey('a'.repeat(64))).toStrictEqual(scoped);
      expect(await store.findApiKey('b'.repeat(64))).toStrictEqual(open);
      expect(await store.findApiKey('c'.repeat(64))).toBeUndefined();
      expect(await store.listApiKeys()).toStrictEqual([scoped, open]);
    });

    test('a second key with a taken name or a taken token hash is refused and writes nothing', async () => {
      expect(await harness.store.createApiKey(key('agent', 'a'))).toBe(true);
      expect(await harness.store.createApiKey(key('agent', 'b'))).toBe(false);
      expect(await harness.store.createApiKey(key('other', 'a'))).toBe(false);
      expect(await harness.store.listApiKeys()).toStrictEqual([key('agent', 'a')]);
      expect(await harness.store.findApiKey('b'.repeat(64))).toBeUndefined();
    });

    test('a deleted key is found no more, its name can be taken again, and deleting it twice says so', async () => {
      await harness.store.createApiKey(key('agent', 'a'));
      expect(await harness.store.deleteApiKey('agent')).toBe(true);
      expect(await harness.store.deleteApiKey('agent')).toBe(false);
      expect(await harness.store.findApiKey('a'.repeat(64))).toBeUndefined();
      expect(await harness.store.listApiKeys()).toStrictEqual([]);
      expect(await harness.store.createApiKey(key('agent', 'b'))).toBe(true);
    });

    test('every node of a fleet sees a key created on one, and none sees it once another revoked it', async () => {
      const [first, second] = await harness.nodes(2);
      await first!.createApiKey(key('agent', 'a'));
      expect((await second!.findApiKey('a'.repeat(64)))?.name).toBe('agent');
      expect(await second!.deleteApiKey('agent')).toBe(true);
      expect(await first!.findApiKey('a'.repeat(64))).toBeUndefined();
    });

    test('keys list in byte order of their names', async () => {
      for (const [name, digit] of [['b-key', '1'], ['A-key', '2'], ['a-key', '3'], ['_key', '4']] as const) await harness.store.createApiKey(key(name, digit));
      expect((await harness.store.listApiKeys()).map((stored) => stored.name)).toStrictEqual(['A-key', '_key', 'a-key', 'b-key']);
    });

    test('the key that opened a runtime is kept with it, and absent reads back absent', async () => {
      await harness.store.commit({ sessions: [sessionRecord('rt-1', { openedByKey: 'agent-7' }), sessionRecord('rt-2')] });
      const store = await harness.restart();
      expect((await store.getSession('rt-1'))?.openedByKey).toBe('agent-7');
      expect((await store.getSession('rt-2'))?.openedByKey ?? null).toBeNull();
    });
  });
}
