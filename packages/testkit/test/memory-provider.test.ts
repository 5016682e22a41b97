import { describe, expect, it } from 'vitest';
import { createMemoryProvider } from '../src/index';

const labels = { runtimectl_installation: 'inst' };

describe('memory provider', () => {
  it('never reuses a snapshot id, not even in another provider instance (a restarted daemon)', async () => {
    const ids = new Set<string>();
    for (let instance = 0; instance < 3; instance += 1) {
      const provider = createMemoryProvider();
      const backend = await provider.create({ backendId: `bkd_${instance}`, runtimeId: 'r', options: {}, labels });
      for (let count = 0; count < 3; count += 1) ids.add((await provider.checkpoint!(backend, { labels })).snapshotId);
    }
    expect(ids.size).toBe(9);
    for (const id of ids) expect(id).toMatch(/^memsnap_[0-9a-f]{32}$/);
  });
});
