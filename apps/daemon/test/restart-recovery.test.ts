import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startRuntimed, type RuntimedProcess } from './runtimed-process';
import { temporaryDirectory } from './temporary-directory';

const running: RuntimedProcess[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((daemon) => daemon.stop('SIGKILL')));
});

/** A daemon whose default is the local provider (fs is the daemon's default; these tests are about local). */
async function start(stateDir: string) {
  const daemon = await startRuntimed(['--provider', 'local'], {}, stateDir);
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
    const stateDir = temporaryDirectory('runtimed-restart-');
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
    const stateDir = temporaryDirectory('runtimed-restart-');
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
    const stateDir = temporaryDirectory('runtimed-restart-');
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

describe('restart recovery (SQLite store, memory provider)', () => {
  const write = (daemon: RuntimedProcess, runtimeId: string, text: string) =>
    call(daemon, '/runtimes/write-file', { runtime_id: runtimeId, path: 'who.txt', content_base64: Buffer.from(text).toString('base64') });

  it("after a restart an old checkpoint's checkout answers 410, never another runtime's files, and a paused runtime fails once", async () => {
    const stateDir = temporaryDirectory('runtimed-restart-');
    const first = await startRuntimed(['--provider', 'memory'], {}, stateDir);
    running.push(first);
    await call(first, '/runtimes/open', { runtime_id: 'a', conversation_id: 'c', sender_id: 's' });
    await write(first, 'a', 'I-am-A');
    const checkpointOfA = (await call(first, '/runtimes/checkpoint', { runtime_id: 'a' })).body;
    await call(first, '/runtimes/open', { runtime_id: 'sleeper', conversation_id: 'c', sender_id: 's' });
    await call(first, '/runtimes/pause', { runtime_id: 'sleeper' });
    await first.stop();

    const second = await startRuntimed(['--provider', 'memory'], {}, stateDir);
    running.push(second);
    const metrics = await (await fetch(`${second.url}/metrics`)).text();
    expect(metrics).toMatch(/runtimectl_reconciliation_total\{action="missing_snapshot"\} 1/);
    await call(second, '/runtimes/open', { runtime_id: 'b', conversation_id: 'c', sender_id: 's' });
    await write(second, 'b', 'I-am-B');
    const checkpointOfB = (await call(second, '/runtimes/checkpoint', { runtime_id: 'b' })).body;

    const checkout = await call(second, '/runtimes/checkout', { checkpoint_id: checkpointOfA.checkpoint_id });
    expect(checkout).toMatchObject({ status: 410, body: { code: 'checkpoint_snapshot_deleted' } });
    const childOfB = (await call(second, '/runtimes/checkout', { checkpoint_id: checkpointOfB.checkpoint_id })).body.runtime.runtime_id;
    const read = (await call(second, '/runtimes/read-file', { runtime_id: childOfB, path: 'who.txt' })).body;
    expect(Buffer.from(read.content_base64, 'base64').toString()).toBe('I-am-B');
    // delete-snapshot of A's checkpoint must not touch B's snapshot.
    await call(second, '/runtimes/checkpoint/delete-snapshot', { checkpoint_id: checkpointOfA.checkpoint_id });
    expect((await call(second, `/checkpoints/${checkpointOfB.checkpoint_id}`)).body.has_provider_snapshot).toBe(true);

    const resume = await call(second, '/runtimes/resume', { runtime_id: 'sleeper' });
    expect(resume).toMatchObject({ status: 410, body: { code: 'checkpoint_snapshot_deleted' } });
    const sleeper = (await call(second, '/runtimes/sleeper')).body;
    expect(sleeper.runtime.status).toBe('failed');
    expect(sleeper.last_error).toMatch(/cannot resume/);
    expect(sleeper.last_error).not.toMatch(/memsnap_/);
    expect(await call(second, '/runtimes/resume', { runtime_id: 'sleeper' })).toMatchObject({ status: 409, body: { code: 'runtime_failed' } });
    expect((await call(second, '/runtimes/close', { runtime_id: 'sleeper' })).body.runtime.status).toBe('closed');
  });
});

