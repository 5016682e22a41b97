import { runProviderConformance } from '../src/index';
import { createMemoryProvider } from '../src/index';

// The suite proves itself against the reference provider, with and without snapshot methods:
// the second run exercises every "absent capability" path (core's unsupported_backend refusals).
runProviderConformance({ name: 'memory', createProvider: () => createMemoryProvider() });

runProviderConformance({
  name: 'memory without snapshots',
  createProvider: () => ({ provider: createMemoryProvider({ snapshots: false }) }),
});
