import { MemoryRuntimeStore } from '@runtimectl/core';
import { runApiConformance } from '@runtimectl/testkit';
import { afterAll } from 'vitest';
import { createTestServer, TEST_TOKEN } from './test-server';

// A real server on a free port, reached over real HTTP by the black-box suite: the memory
// provider carries the snapshot semantics, `nosnap` (no snapshot methods) the 501 paths.
const store = new MemoryRuntimeStore();
const server = createTestServer({ store, config: { auth: { bearerToken: TEST_TOKEN, store } } });
const baseUrl = await server.app.listen({ host: '127.0.0.1', port: 0 });
afterAll(() => server.app.close());

runApiConformance({
  name: 'server-http + memory providers',
  baseUrl,
  token: TEST_TOKEN,
  snapshotProvider: 'memory',
  unsupportedProvider: 'nosnap',
  failNextCheckout: async () => server.provider.failNext('checkout'),
});
