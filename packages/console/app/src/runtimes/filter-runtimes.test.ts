import { describe, expect, it } from 'vitest';
import type { RuntimeRecord } from '../api/api-types';
import { distinctValues, filterRuntimes, NO_FILTERS, upsertRuntime } from './filter-runtimes';

function runtime(runtimeId: string, overrides: Partial<RuntimeRecord> = {}): RuntimeRecord {
  return {
    runtime_id: runtimeId,
    conversation_id: `conversation-${runtimeId}`,
    sender_id: 'sender',
    status: 'idle',
    created_at_ms: 0,
    updated_at_ms: 0,
    provider: 'fs',
    parent_runtime_id: null,
    forked_from_checkpoint_id: null,
    home_node_id: 'node_a',
    ...overrides,
  };
}

describe('filterRuntimes', () => {
  const runtimes = [
    runtime('alpha', { status: 'paused' }),
    runtime('beta', { provider: 'memory', home_node_id: 'node_b', sender_id: 'Zed' }),
    runtime('gamma', { conversation_id: 'support-42' }),
  ];

  it('matches the search against id, conversation and sender, ignoring case', () => {
    expect(filterRuntimes(runtimes, { ...NO_FILTERS, search: 'zed' }).map((r) => r.runtime_id)).toEqual(['beta']);
    expect(filterRuntimes(runtimes, { ...NO_FILTERS, search: 'SUPPORT' }).map((r) => r.runtime_id)).toEqual(['gamma']);
  });

  it('combines status, provider, node and conversation filters', () => {
    expect(filterRuntimes(runtimes, { ...NO_FILTERS, status: 'paused' }).map((r) => r.runtime_id)).toEqual(['alpha']);
    expect(filterRuntimes(runtimes, { ...NO_FILTERS, provider: 'fs', node: 'node_a' })).toHaveLength(2);
    expect(filterRuntimes(runtimes, { ...NO_FILTERS, provider: 'memory', node: 'node_a' })).toHaveLength(0);
    expect(filterRuntimes(runtimes, { ...NO_FILTERS, conversation: '42' }).map((r) => r.runtime_id)).toEqual(['gamma']);
  });

  it('lists distinct option values without blanks', () => {
    expect(distinctValues([...runtimes, runtime('delta', { home_node_id: null })], (r) => r.home_node_id)).toEqual(['node_a', 'node_b']);
  });
});

describe('upsertRuntime', () => {
  it('replaces a known runtime and inserts a new one in id order', () => {
    const list = [runtime('a'), runtime('c')];
    const updated = upsertRuntime(list, runtime('a', { status: 'running' }));
    expect(updated[0]?.status).toBe('running');
    expect(upsertRuntime(updated, runtime('b')).map((r) => r.runtime_id)).toEqual(['a', 'b', 'c']);
    expect(list[0]?.status).toBe('idle');
  });
});
