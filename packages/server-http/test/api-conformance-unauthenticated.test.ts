import { runApiConformance } from '@runtimectl/testkit';
import { afterAll } from 'vitest';
import { createTestServer } from './test-server';

// The same suite against a deployment without auth and without a named snapshot provider:
// the auth and snapshot-semantics tests skip with their reasons, and the provider without
// snapshots is discovered from GET /api/v1/providers.
const server = createTestServer();
const baseUrl = await server.app.listen({ host: '127.0.0.1', port: 0 });
afterAll(() => server.app.close());

runApiConformance({ name: 'server-http without auth', baseUrl });
