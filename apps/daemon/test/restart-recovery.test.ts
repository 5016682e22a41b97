import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startRuntimed, type RuntimedProcess } from './runtimed-process';

const running: RuntimedProcess[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((daemon) => daemon.stop('SIGKILL')));
});

async function start(stateDir: string) {
  const daemon = await startRuntimed([], {}, stateDir);
  running.push(daemon);
  return daemon;
}

async function call(daemon: RuntimedProcess, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${daemon.url}/api/v1${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) }),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, any> };
}

describe('restart recovery (SQLite store, local provider)', () => {
  it('every runtime, checkpoint, head, lineage link and binding is back after a restart, even after SIGKILL', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'runtimed-restart-'));
    const first = await start(stateDir);
    await call(first, '/runtimes/open', { runtime_id: 'keeper', conversation_id: 'c', sender_id: 's', session_state: { turn: 7 } });
    await call(first, '/runtimes/write-file', { runtime_id: 'keeper', path: 'notes.txt', content_base64: Buffer.from('kept').toString('base64') });
    const one = (await call(first, '/runtimes/checkpoint', { runtime_id: 'keeper', name: 'one' })).body;
    const two = (await call(first, '/runtimes/checkpoint', { runtime_id: 'keeper', name: 'two' })).body;
    await call(first, '/runtimes/open', { runtime_id: 'gone', conversation_id: 'c', sender_id: 's' });
    await call(first, '/runtimes/close', { runtime_id: 'gone' });
    await first.stop('SIGKILL');

    const second = await start(stateDir);
    const detail = (await call(second, '/runtimes/keeper')).body;
    expect(detail).toMatchObject({
      runtime: { runtime_id: 'keeper', status: 'idle' },
      head_checkpoint_id: two.checkpoint_id,
      session_state: { turn: 7 },
    });
    const checkpoints = (await call(second, '/runtimes/keeper/checkpoints')).body.checkpoints;
    expect(checkpoints.map((c: { checkpoint_id: string }) => c.checkpoint_id)).toEqual([two.checkpoint_id, one.checkpoint_id]);
    expect(checkpoints[0].parent_checkpoint_id).toBe(one.checkpoint_id);
    // The binding is back: the local backend re-attaches to its workspace directory on first use.
    const read = (await call(second, '/runtimes/read-file', { runtime_id: 'keeper', path: 'notes.txt' })).body;
    expect(Buffer.from(read.content_base64, 'base64').toString()).toBe('kept');
    expect((await call(second, '/runtimes/gone')).body.runtime.status).toBe('closed');
    const next = (await call(second, '/runtimes/checkpoint', { runtime_id: 'keeper' })).body;
    expect(next.parent_checkpoint_id).toBe(two.checkpoint_id);
  });

  it('a runtime whose workspace vanished while the daemon was down is marked failed, saying what was lost', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'runtimed-restart-'));
    const first = await start(stateDir);
    await call(first, '/runtimes/open', { runtime_id: 'doomed', conversation_id: 'c', sender_id: 's' });
    await first.stop();
    const { rmSync, readdirSync } = await import('node:fs');
    const workspaces = join(stateDir, 'workspaces');
    for (const entry of readdirSync(workspaces)) {
      if (!entry.startsWith('.')) rmSync(join(workspaces, entry), { recursive: true, force: true });
    }

    const second = await start(stateDir);
    const detail = (await call(second, '/runtimes/doomed')).body;
    expect(detail.runtime.status).toBe('failed');
    const metrics = await (await fetch(`${second.url}/metrics`)).text();
    expect(metrics).toMatch(/runtimectl_reconciliation_total\{action="failed_runtime"\} 1/);
    expect(detail.last_error).toMatch(/local backend/);
    const exec = await call(second, '/runtimes/exec', { runtime_id: 'doomed', command: 'true' });
    expect(exec).toMatchObject({ status: 409, body: { code: 'runtime_failed' } });
  });

  it('an Idempotency-Key response survives a restart: the retry after SIGKILL is replayed, not redone', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'runtimed-restart-'));
    const first = await start(stateDir);
    const retryKey = { 'idempotency-key': 'open-once-0001' };
    const opened = await call(first, '/runtimes/open', { conversation_id: 'c', sender_id: 's' }, retryKey);
    await first.stop('SIGKILL');

    const second = await start(stateDir);
    const retried = await call(second, '/runtimes/open', { conversation_id: 'c', sender_id: 's' }, retryKey);
    expect(retried.headers.get('idempotent-replayed')).toBe('true');
    expect(retried.body.runtime.runtime_id).toBe(opened.body.runtime.runtime_id);
    expect((await call(second, '/runtimes')).body.runtimes).toHaveLength(1);
  });
});
