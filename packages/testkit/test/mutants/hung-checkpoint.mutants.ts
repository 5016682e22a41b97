import { describe } from 'vitest';
import { createMemoryProvider, delegatingProvider, lifecycleTests, snapshotTests, type ProviderConformanceOptions } from '../../src/index';

// The snapshot and lifecycle areas against a provider whose checkpoint never settles, with a short test timeout.
const options: ProviderConformanceOptions = {
  name: 'hung checkpoint',
  timeouts: { testMs: 4_000 },
  createProvider: () => delegatingProvider(createMemoryProvider(), { checkpoint: () => new Promise(() => {}) }),
};
describe('hung checkpoint', () => {
  snapshotTests(options);
  lifecycleTests(options);
});
