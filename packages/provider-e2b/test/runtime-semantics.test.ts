import { describe, expect, it } from 'vitest';
import { MemoryRuntimeStore, RuntimeService } from '@runtimectl/core';
import { runtimectlErrorOf, useEmulator, useProviders } from './support/emulator-fixture';

// The provider through core's RuntimeService, counted at the emulator: what reaches E2B for
// each runtime operation, and what per-runtime options do.
const emulator = await useEmulator({ templates: ['python-3'] });
const provider = useProviders(emulator);

function service(): RuntimeService {
  return new RuntimeService({ store: new MemoryRuntimeStore(), providers: [provider()], defaultProvider: 'e2b', installationId: 'semantics' });
}

const text = (value: string) => Buffer.from(value).toString('base64');

const codeOf = async (work: Promise<unknown>) => (await runtimectlErrorOf(work)).code;

describe('snapshot calls at E2B', () => {
  it('declares memory snapshots: an E2B snapshot holds the sandbox\'s memory and processes, not only its files', async () => {
    expect((await service().providers()).providers[0]?.capabilities).toMatchObject({ snapshot: true, snapshot_kind: 'memory', restore_verification: 'opt_in' });
  });

  it('checkpoints of a clean runtime make no snapshot call: N checkpoints, 1 snapshot', async () => {
    const runtimes = service();
    const { runtime } = await runtimes.open({ conversation_id: 'c', sender_id: 's' });
    await runtimes.writeFile({ runtime_id: runtime.runtime_id, path: 'state.txt', content_base64: text('v1') });
    await emulator.reset();
    const first = await runtimes.checkpoint({ runtime_id: runtime.runtime_id });
    expect(first.reused_backend_snapshot).toBe(false);
    expect((await emulator.state()).calls.snapshot).toBe(1);
    for (let index = 0; index < 5; index += 1) {
      await runtimes.readFile({ runtime_id: runtime.runtime_id, path: 'state.txt' });
      const again = await runtimes.checkpoint({ runtime_id: runtime.runtime_id, name: `again-${index}` });
      expect(again.reused_backend_snapshot).toBe(true);
    }
    expect((await emulator.state()).calls.snapshot).toBe(1);
    await runtimes.exec({ runtime_id: runtime.runtime_id, command: 'echo v2 > state.txt' });
    expect((await runtimes.checkpoint({ runtime_id: runtime.runtime_id })).reused_backend_snapshot).toBe(false);
    expect((await emulator.state()).calls.snapshot).toBe(2);
    await runtimes.close({ runtime_id: runtime.runtime_id });
  });

  it('pause of a clean runtime reuses its snapshot and kills the sandbox (never E2B’s pause); resume starts from it', async () => {
    const runtimes = service();
    const { runtime } = await runtimes.open({ conversation_id: 'c', sender_id: 's' });
    await runtimes.writeFile({ runtime_id: runtime.runtime_id, path: 'state.txt', content_base64: text('paused state') });
    await runtimes.checkpoint({ runtime_id: runtime.runtime_id });
    await emulator.reset();
    await runtimes.pause({ runtime_id: runtime.runtime_id });
    const paused = await emulator.state();
    expect(paused.calls).toMatchObject({ snapshot: 0, pause: 0, kill: 1 });
    expect(paused.sandboxes.filter((sandbox) => sandbox.metadata.runtimectl_runtime_id === runtime.runtime_id)).toEqual([]);
    await runtimes.resume({ runtime_id: runtime.runtime_id });
    const read = await runtimes.readFile({ runtime_id: runtime.runtime_id, path: 'state.txt' });
    expect(Buffer.from(read.content_base64, 'base64').toString()).toBe('paused state');
    const closed = await runtimes.close({ runtime_id: runtime.runtime_id });
    expect(closed.deleted_snapshot_ids).toHaveLength(1);
    expect((await emulator.state()).snapshots).toEqual([]);
  });
});

describe('a snapshot deleted at E2B behind the daemon\'s back', () => {
  it('is reported by start-up reconciliation, then resume answers checkpoint_snapshot_deleted once and leaves the runtime failed', async () => {
    const store = new MemoryRuntimeStore();
    const e2b = provider();
    const runtimes = new RuntimeService({ store, providers: [e2b], defaultProvider: 'e2b', installationId: 'vanished' });
    const { runtime } = await runtimes.open({ conversation_id: 'c', sender_id: 's' });
    await runtimes.writeFile({ runtime_id: runtime.runtime_id, path: 'state.txt', content_base64: text('paused state') });
    await runtimes.pause({ runtime_id: runtime.runtime_id });
    const [snapshot] = (await emulator.state()).snapshots;
    expect(await e2b.deleteSnapshot(snapshot!.snapshotId)).toEqual({ deleted: true });

    const restarted = new RuntimeService({ store, providers: [e2b], defaultProvider: 'e2b', installationId: 'vanished' });
    expect((await restarted.reconcile()).missingSnapshots).toEqual([snapshot!.snapshotId]);
    expect(await codeOf(restarted.resume({ runtime_id: runtime.runtime_id }))).toBe('checkpoint_snapshot_deleted');
    const detail = await restarted.get(runtime.runtime_id);
    expect(detail.runtime.status).toBe('failed');
    expect(detail.last_error).toMatch(/cannot resume/);
    expect(detail.last_error).not.toContain(snapshot!.snapshotId);
    const creates = (await emulator.state()).calls;
    expect(await codeOf(restarted.resume({ runtime_id: runtime.runtime_id }))).toBe('runtime_failed');
    expect((await emulator.state()).calls).toEqual(creates);
    expect((await restarted.close({ runtime_id: runtime.runtime_id })).runtime.status).toBe('closed');
  });
});

describe('per-runtime options', () => {
  it('envs reach every command of the runtime', async () => {
    const runtimes = service();
    const { runtime } = await runtimes.open({ conversation_id: 'c', sender_id: 's', provider_options: { envs: { GREETING: 'hello from options' } } });
    const result = await runtimes.exec({ runtime_id: runtime.runtime_id, command: 'printenv GREETING' });
    expect(Buffer.from(result.stdout_base64, 'base64').toString()).toBe('hello from options\n');
    await runtimes.close({ runtime_id: runtime.runtime_id });
  });

  it('template and timeout_ms choose the sandbox’s template and timeout', async () => {
    const runtimes = service();
    const startedAt = Date.now();
    const { runtime } = await runtimes.open({ conversation_id: 'c', sender_id: 's', provider_options: { template: 'python-3', timeout_ms: 3_600_000 } });
    const [sandbox] = (await emulator.state()).sandboxes.filter((live) => live.metadata.runtimectl_runtime_id === runtime.runtime_id);
    expect(sandbox?.templateId).toBe('python-3');
    expect(Date.parse(sandbox!.endAt) - startedAt).toBeGreaterThan(3_500_000);
    await runtimes.close({ runtime_id: runtime.runtime_id });
  });

  it('connection settings are refused as provider_options: a caller never points the daemon elsewhere', async () => {
    const runtimes = service();
    const refused: Array<Record<string, string | number>> = [
      { apiKey: 'x' },
      { api_url: 'http://elsewhere' },
      { sandboxUrl: 'http://elsewhere' },
      { workspace_root: '/' },
      { timeout_ms: 10 },
    ];
    for (const options of refused) {
      expect(await codeOf(runtimes.open({ conversation_id: 'c', sender_id: 's', provider_options: options }))).toBe('invalid_request');
    }
    expect((await emulator.state()).calls.create).toBe(0);
  });
});

describe('paths and exec', () => {
  it('paths outside the workspace are refused with invalid_request before E2B is called', async () => {
    const runtimes = service();
    const { runtime } = await runtimes.open({ conversation_id: 'c', sender_id: 's' });
    const calls = (await emulator.state()).calls.files;
    const outside = await runtimectlErrorOf(runtimes.readFile({ runtime_id: runtime.runtime_id, path: '../../etc/passwd' }));
    expect(outside.code).toBe('invalid_request');
    expect(outside.message, 'names the caller’s path, not the sandbox’s').not.toContain('/home/user');
    expect(await codeOf(runtimes.writeFile({ runtime_id: runtime.runtime_id, path: '/etc/evil', content_base64: text('x') }))).toBe('invalid_request');
    expect(await codeOf(runtimes.exec({ runtime_id: runtime.runtime_id, command: 'pwd', cwd: '..' }))).toBe('invalid_request');
    expect((await emulator.state()).calls.files).toBe(calls);
    await runtimes.close({ runtime_id: runtime.runtime_id });
  });

  it('exec in a missing cwd fails with path_not_found and runs nothing', async () => {
    const runtimes = service();
    const { runtime } = await runtimes.open({ conversation_id: 'c', sender_id: 's' });
    expect(await codeOf(runtimes.exec({ runtime_id: runtime.runtime_id, command: 'touch ran.txt', cwd: 'no/such/dir' }))).toBe('path_not_found');
    expect((await runtimes.stat({ runtime_id: runtime.runtime_id, path: 'no/such/dir/ran.txt' })).exists).toBe(false);
    await runtimes.close({ runtime_id: runtime.runtime_id });
  });

  it('exec honours a shell other than bash', async () => {
    const runtimes = service();
    const { runtime } = await runtimes.open({ conversation_id: 'c', sender_id: 's' });
    const result = await runtimes.exec({ runtime_id: runtime.runtime_id, command: 'echo "$0"', shell: '/bin/sh' });
    expect(Buffer.from(result.stdout_base64, 'base64').toString()).toBe('/bin/sh\n');
    await runtimes.close({ runtime_id: runtime.runtime_id });
  });
});

describe('restores of a sandbox whose processes keep writing', () => {
  it('a runtime with a background job writing a file checks out and resumes with the default verification', async () => {
    // E2B snapshots keep processes running: a job writing between the snapshot and the manifest
    // taken after it (and again after a restore, before its manifest) changes files no restore
    // lost. A default that compared them failed every restore of such a runtime (this test, with
    // restore_verification 'default'); verification is opt-in here.
    const runtimes = service();
    const { runtime } = await runtimes.open({ conversation_id: 'c', sender_id: 's' });
    await runtimes.exec({ runtime_id: runtime.runtime_id, command: '(while :; do date +%s%N >> busy.log; sleep 0.01; done) >/dev/null 2>&1 &' });
    await runtimes.exec({ runtime_id: runtime.runtime_id, command: 'sleep 0.2; test -s busy.log' });
    const checkpoint = await runtimes.checkpoint({ runtime_id: runtime.runtime_id });
    const child = await runtimes.checkout({ checkpoint_id: checkpoint.checkpoint_id });
    expect(child.runtime.status).toBe('idle');
    await runtimes.pause({ runtime_id: runtime.runtime_id });
    expect((await runtimes.resume({ runtime_id: runtime.runtime_id })).runtime.status).toBe('idle');
    await runtimes.close({ runtime_id: child.runtime.runtime_id });
    await runtimes.close({ runtime_id: runtime.runtime_id });
  });
});

describe('background processes (issue 39)', () => {
  it('a runtime that ran no command checkpoints with no count (only its manifest command), reuses with no call at all; a job keeps it dirty', async () => {
    const runtimes = service();
    const { runtime } = await runtimes.open({ conversation_id: 'c', sender_id: 's' });
    const id = runtime.runtime_id;
    await runtimes.writeFile({ runtime_id: id, path: 'state.txt', content_base64: text('v1') });
    await emulator.reset();
    expect((await runtimes.checkpoint({ runtime_id: id })).background_processes).toBeUndefined();
    const afterFirst = await emulator.state();
    expect(afterFirst.calls, 'one snapshot; one command, the manifest: nothing can run, so nothing is counted').toMatchObject({ snapshot: 1, process: 1 });
    const processCallsAfterFirst = afterFirst.calls.process;
    expect((await runtimes.checkpoint({ runtime_id: id })).reused_backend_snapshot).toBe(true);
    expect((await emulator.state()).calls, 'a reuse calls nothing, not even the count').toMatchObject({ snapshot: 1, process: processCallsAfterFirst });
    await runtimes.exec({ runtime_id: id, command: '(sleep 30) >/dev/null 2>&1 &' });
    const beforeBusy = (await emulator.state()).calls.process;
    const busy = await runtimes.checkpoint({ runtime_id: id });
    expect(busy.reused_backend_snapshot).toBe(false);
    expect(busy.background_processes ?? 0).toBeGreaterThanOrEqual(1);
    expect((await emulator.state()).calls.process - beforeBusy, 'after an exec: the count, then the manifest').toBe(2);
    expect((await runtimes.checkpoint({ runtime_id: id })).reused_backend_snapshot).toBe(false);
    await runtimes.close({ runtime_id: id });
  });

  it('counts what a command started even when the request or the sandbox sets the marker variable itself, and never the count', async () => {
    const runtimes = service();
    const { runtime } = await runtimes.open({ conversation_id: 'c', sender_id: 's', provider_options: { envs: { RUNTIMECTL_EXEC: '1' } } });
    const id = runtime.runtime_id;
    await runtimes.exec({ runtime_id: id, command: 'true' });
    expect((await runtimes.checkpoint({ runtime_id: id })).background_processes, 'nothing runs: the count does not count itself').toBeUndefined();
    await runtimes.exec({ runtime_id: id, command: 'sleep 30 >/dev/null 2>&1 &', env: { RUNTIMECTL_EXEC: '0' } });
    expect((await runtimes.checkpoint({ runtime_id: id })).background_processes).toBe(1);
    await runtimes.close({ runtime_id: id });
  });
});
