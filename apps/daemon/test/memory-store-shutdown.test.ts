import { randomBytes } from 'node:crypto';
import { startBoundedEmulator } from './bounded-emulator';
import { afterAll, describe, expect, it } from 'vitest';
import { callDaemon } from './daemon-http';
import { startRuntimed } from './runtimed-process';

// With `--store memory` nothing outlives the process: no later start can find, by its records,
// the sandboxes and snapshots this one made. So a graceful shutdown must release them itself.
const API_KEY = `e2b_${randomBytes(20).toString('hex')}`;
const emulator = await startBoundedEmulator();
afterAll(() => emulator.close());

const e2bEnvironment = {
  RUNTIMECTL_PROVIDERS_E2B_API_URL: emulator.apiUrl,
  RUNTIMECTL_PROVIDERS_E2B_SANDBOX_URL: emulator.sandboxUrl,
  RUNTIMECTL_PROVIDERS_E2B_API_KEY_ENV: 'SHUTDOWN_E2B_KEY',
  SHUTDOWN_E2B_KEY: API_KEY,
};

async function ok(baseUrl: string, path: string, body?: unknown) {
  const answer = await callDaemon(baseUrl, path, body);
  expect(answer.status, `${path}: ${answer.text}`).toBe(200);
  return answer.body;
}

describe('runtimed --store memory', () => {
  it('warns at start that the memory store loses its state on exit', async () => {
    const daemon = await startRuntimed(['--provider', 'e2b', '--store', 'memory'], e2bEnvironment);
    try {
      expect(daemon.stderr()).toMatch(/memory store: .*lost on exit/);
    } finally {
      expect(await daemon.stop()).toBe(0);
    }
  });

  it('SIGTERM releases every sandbox and deletes every snapshot it made at the provider before exiting', async () => {
    const daemon = await startRuntimed(['--provider', 'e2b', '--store', 'memory'], e2bEnvironment);
    const open = async (runtimeId: string) => ok(daemon.url, '/runtimes/open', { runtime_id: runtimeId, conversation_id: 'c', sender_id: 's' });
    try {
      // live with a checkpoint, a checkout child of it, a paused runtime, and a closed one whose snapshot was kept
      await open('live');
      await ok(daemon.url, '/runtimes/write-file', { runtime_id: 'live', path: 'a.txt', content_base64: Buffer.from('a').toString('base64') });
      const { checkpoint_id } = await ok(daemon.url, '/runtimes/checkpoint', { runtime_id: 'live' });
      await ok(daemon.url, '/runtimes/checkout', { checkpoint_id });
      await open('paused');
      await ok(daemon.url, '/runtimes/pause', { runtime_id: 'paused' });
      await open('kept');
      await ok(daemon.url, '/runtimes/exec', { runtime_id: 'kept', command: 'echo x > k.txt' });
      await ok(daemon.url, '/runtimes/checkpoint', { runtime_id: 'kept' });
      await ok(daemon.url, '/runtimes/close', { runtime_id: 'kept', keep_snapshots: true });
      const before = await emulator.state();
      expect(before.sandboxes.length).toBe(2);
      expect(before.snapshots.length).toBe(3);
    } finally {
      expect(await daemon.stop('SIGTERM')).toBe(0);
    }
    const after = await emulator.state();
    expect(after.sandboxes.map((sandbox) => sandbox.sandboxId), `sandboxes left at E2B; daemon log:\n${daemon.stderr()}`).toEqual([]);
    expect(after.snapshots.map((snapshot) => snapshot.snapshotId), 'snapshots left at E2B').toEqual([]);
    expect(daemon.stderr()).toContain('released what only the memory store knew: 3 runtimes closed, 2 backends released, 3 snapshots deleted');
  }, 120_000);
});
