import { runApiConformance } from '@runtimectl/testkit';
import { afterAll } from 'vitest';
import { startRuntimed } from './runtimed-process';

// The black-box HTTP suite against a real `runtimed` process over real HTTP: the memory
// provider for snapshot semantics, the local provider for the unsupported paths, auth on.
const TOKEN = 'api-conformance-token-0123456789';
const daemon = await startRuntimed(['--provider', 'memory'], {
  RUNTIMECTL_HTTP_AUTH_BEARER_TOKEN_ENV: 'CONFORMANCE_TOKEN',
  CONFORMANCE_TOKEN: TOKEN,
});
afterAll(async () => {
  await daemon.stop();
});

runApiConformance({
  name: 'runtimed (memory + local providers)',
  baseUrl: daemon.url,
  token: TOKEN,
  snapshotProvider: 'memory',
  unsupportedProvider: 'local',
});
