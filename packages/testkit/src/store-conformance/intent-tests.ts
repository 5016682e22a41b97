import { describe, expect } from 'vitest';
import type { ProviderIntent } from '@runtimectl/core';
import { resolveStoreConformanceOptions, type StoreConformanceOptions } from './store-conformance-options';
import { sessionRecord } from './store-fixtures';
import { storeTest, useStoreHarness } from './store-harness';

const intent = (intentId: string, overrides: Partial<ProviderIntent> = {}): ProviderIntent => ({
  intentId,
  kind: 'backend',
  providerId: 'memory',
  runtimeId: 'rt-not-yet-committed',
  backendId: intentId,
  createdAtMs: 1_764_000_000_000,
  nodeId: null,
  ...overrides,
});

/**
 * Intents: recorded before a provider call (for a runtime that may not exist yet), resolved by
 * the commit that records the call's result, listed oldest first for reconciliation, durable.
 */
export function intentTests(options: StoreConformanceOptions): void {
  const resolved = resolveStoreConformanceOptions(options);
  const test = storeTest(resolved);

  describe('intents', () => {
    const harness = useStoreHarness(resolved);

    test('an intent can be recorded before its runtime exists, and reads back whole', async () => {
      const recorded = intent('bkd_1', { kind: 'snapshot', backendId: 'bkd_source' });
      await harness.store.commit({ intents: [recorded] });
      expect(await harness.store.listIntents()).toStrictEqual([recorded]);
    });

    test('lists open intents oldest first', async () => {
      await harness.store.commit({
        intents: [intent('bkd_c', { createdAtMs: 3 }), intent('bkd_a', { createdAtMs: 1 }), intent('bkd_b', { createdAtMs: 2 })],
      });
      expect((await harness.store.listIntents()).map((open) => open.intentId)).toStrictEqual(['bkd_a', 'bkd_b', 'bkd_c']);
    });

    test('the commit that records the result resolves the intent in the same batch; unknown ids are ignored', async () => {
      await harness.store.commit({ intents: [intent('bkd_1'), intent('bkd_2')] });
      await harness.store.commit({
        sessions: [sessionRecord('rt-1')],
        resolvedIntentIds: ['bkd_1', 'bkd_never_recorded'],
      });
      expect((await harness.store.listIntents()).map((open) => open.intentId)).toStrictEqual(['bkd_2']);
      expect(await harness.store.getSession('rt-1')).toBeDefined();
    });

    test('open intents survive a restart', async () => {
      await harness.store.commit({ intents: [intent('bkd_1')] });
      const reopened = await harness.restart();
      expect((await reopened.listIntents()).map((open) => open.intentId)).toStrictEqual(['bkd_1']);
    });
  });
}
