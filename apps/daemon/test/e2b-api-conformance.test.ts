import { randomBytes } from 'node:crypto';
import { startBoundedEmulator } from './bounded-emulator';
import { runApiConformance } from '@runtimectl/testkit';
import { afterAll, expect, it } from 'vitest';
import { runtimedRefusal, startRuntimed } from './runtimed-process';

// The black-box HTTP suite against a real `runtimed` whose [providers.e2b] points at an E2B
// emulator started here: the real e2b SDK inside the daemon speaks E2B's wire protocol to it.
// Snapshot semantics run on e2b; the local provider covers the unsupported paths.
const TOKEN = 'e2b-api-conformance-token-0123456789';
const API_KEY = `e2b_${randomBytes(20).toString('hex')}`;
const emulator = await startBoundedEmulator();
const daemon = await startRuntimed(['--provider', 'e2b'], {
  RUNTIMECTL_PROVIDERS_E2B_API_URL: emulator.apiUrl,
  RUNTIMECTL_PROVIDERS_E2B_SANDBOX_URL: emulator.sandboxUrl,
  RUNTIMECTL_PROVIDERS_E2B_API_KEY_ENV: 'CONFORMANCE_E2B_KEY',
  CONFORMANCE_E2B_KEY: API_KEY,
  RUNTIMECTL_HTTP_AUTH_BEARER_TOKEN_ENV: 'CONFORMANCE_TOKEN',
  CONFORMANCE_TOKEN: TOKEN,
});

// Runs after the suite's own afterAll, which closed every runtime it opened (cascade, snapshots deleted).
afterAll(async () => {
  try {
    const state = await emulator.state();
    expect(state.sandboxes.map((sandbox) => sandbox.sandboxId), 'sandboxes left at E2B').toEqual([]);
    expect(state.snapshots.map((snapshot) => snapshot.snapshotId), 'snapshots left at E2B').toEqual([]);
    expect(daemon.stderr(), 'the daemon log').not.toContain(API_KEY);
  } finally {
    await daemon.stop();
    await emulator.close();
  }
}, 60_000);

runApiConformance({
  name: 'runtimed (e2b provider on the emulator, local for unsupported paths)',
  baseUrl: daemon.url,
  token: TOKEN,
  snapshotProvider: 'e2b',
  unsupportedProvider: 'local',
  // A checkout child's sandbox is an E2B create from the snapshot: fail the next one.
  failNextCheckout: () => emulator.failNext('create', { status: 500, message: 'injected create failure' }),
  timeouts: { testMs: 60_000, hookMs: 180_000 },
});

it('with [providers.e2b] enabled but its key variable unset, runtimed refuses to start naming the variable', async () => {
  const refused = await runtimedRefusal(['--provider', 'e2b'], { RUNTIMECTL_PROVIDERS_E2B_API_KEY_ENV: 'CONFORMANCE_NO_SUCH_KEY' });
  expect(refused.code).toBe(2);
  expect(refused.stderr).toContain('providers.e2b: no E2B API key: the environment variable CONFORMANCE_NO_SUCH_KEY is not set or empty');
});
