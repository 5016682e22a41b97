import { describe, expect, it } from 'vitest';
import { MemoryRuntimeStore, RuntimeService, type BackendProviderV1, type RestoreVerificationEvent } from '@runtimectl/core';
import { createMemoryProvider, delegatingProvider } from '@runtimectl/testkit';
import { rejectionOf } from './harness';

type Restore = 'faithful' | 'loses_files' | 'alters_a_file' | 'manifest_fails';

/**
 * A memory provider whose restores can go wrong as hosted sandboxes' do (E2B #884, #1104: files
 * gone after a resume): `loses_files` starts an empty workspace instead of the snapshot's,
 * `alters_a_file` restores the snapshot then overwrites `a.txt`. Which one applies is switched
 * per test, so a later restore can be faithful again.
 */
function restoringProvider() {
  const inner = createMemoryProvider();
  const state: { restore: Restore } = { restore: 'faithful' };
  const provider: BackendProviderV1 = delegatingProvider(inner, {
    checkout: async (request) => {
      if (state.restore === 'loses_files') return inner.create(request);
      const backend = await inner.checkout!(request);
      if (state.restore === 'alters_a_file') await backend.writeBytes('a.txt', new TextEncoder().encode('not what was checkpointed'));
      if (state.restore === 'manifest_fails') return Object.assign(backend, { manifest: () => Promise.reject(new Error('manifest walk failed')) });
      return backend;
    },
  });
  return { inner, provider, state };
}

function serviceOver(provider: BackendProviderV1) {
  const store = new MemoryRuntimeStore();
  const verifications: RestoreVerificationEvent[] = [];
  const service = new RuntimeService({
    store,
    providers: [provider],
    defaultProvider: 'memory',
    observer: { restoreVerification: (event) => verifications.push(event) },
    // The memory provider's restores are verified only when asked (see the second describe).
    restores: { verify: 'always' },
  });
  return { store, service, verifications };
}

async function workspaceWith(service: RuntimeService, files: Record<string, string>): Promise<string> {
  const { runtime } = await service.open({ conversation_id: 'c', sender_id: 's' });
  for (const [path, text] of Object.entries(files)) {
    await service.writeFile({ runtime_id: runtime.runtime_id, path, content_base64: Buffer.from(text).toString('base64') });
  }
  return runtime.runtime_id;
}

describe('verified restores (a restored workspace is compared with its checkpoint manifest)', () => {
  it('a checkout whose restore lost files fails with checkpoint_verification_failed listing each differing path and its change', async () => {
    const made = restoringProvider();
    const { service } = serviceOver(made.provider);
    const id = await workspaceWith(service, { 'a.txt': 'one', 'dir/b.txt': 'two' });
    const { checkpoint_id } = await service.checkpoint({ runtime_id: id });
    made.state.restore = 'loses_files';
    const error = await rejectionOf(service.checkout({ checkpoint_id }));
    expect(error.code).toBe('checkpoint_verification_failed');
    expect(error.details).toEqual({
      checkpoint_id,
      differing_paths: [
        { path: 'a.txt', change: 'removed' },
        { path: 'dir', change: 'removed' },
        { path: 'dir/b.txt', change: 'removed' },
      ],
      truncated: false,
    });
  });

  it('a restore that altered a file names it as modified; nothing of the child is created and its backend is released', async () => {
    const made = restoringProvider();
    const { service, store } = serviceOver(made.provider);
    const id = await workspaceWith(service, { 'a.txt': 'one', 'b.txt': 'two' });
    const { checkpoint_id } = await service.checkpoint({ runtime_id: id });
    made.state.restore = 'alters_a_file';
    const error = await rejectionOf(service.checkout({ checkpoint_id }));
    expect(error.details).toMatchObject({ differing_paths: [{ path: 'a.txt', change: 'modified' }], truncated: false });
    // Only the source's backend is left, no child was recorded, and no intent is left open.
    expect(made.inner.liveBackendIds()).toHaveLength(1);
    expect((await service.list()).runtimes.map((runtime) => runtime.runtime_id)).toEqual([id]);
    expect(await store.listIntents()).toEqual([]);
  });

  it('a failed verification is an event and is counted by provider and outcome; a passing one changes nothing', async () => {
    const made = restoringProvider();
    const { service, store, verifications } = serviceOver(made.provider);
    const id = await workspaceWith(service, { 'a.txt': 'one' });
    const { checkpoint_id } = await service.checkpoint({ runtime_id: id });
    const { runtime } = await service.checkout({ checkpoint_id });
    const read = await service.readFile({ runtime_id: runtime.runtime_id, path: 'a.txt' });
    expect(Buffer.from(read.content_base64, 'base64').toString()).toBe('one');
    made.state.restore = 'alters_a_file';
    await rejectionOf(service.checkout({ checkpoint_id }));
    expect(verifications).toEqual([
      { providerId: 'memory', outcome: 'passed' },
      { providerId: 'memory', outcome: 'failed' },
    ]);
    const events = await store.listEvents({ afterEventId: 0, limit: 100, types: ['verification.failed'] });
    expect(events.map((event) => [event.runtimeId, event.checkpointId, event.data])).toEqual([
      [id, checkpoint_id, { operation: 'checkout', differing_paths: 1, truncated: false }],
    ]);
  });

  it('a restore whose manifest cannot be taken fails with the provider error and releases the new backend', async () => {
    const made = restoringProvider();
    const { service, store, verifications } = serviceOver(made.provider);
    const id = await workspaceWith(service, { 'a.txt': 'one' });
    const { checkpoint_id } = await service.checkpoint({ runtime_id: id });
    made.state.restore = 'manifest_fails';
    expect((await rejectionOf(service.checkout({ checkpoint_id }))).code).toBe('provider_error');
    expect(made.inner.liveBackendIds()).toHaveLength(1);
    expect(await store.listIntents()).toEqual([]);
    expect(verifications).toEqual([]);
  });

  it('a provider that proves the restore exact (restoredExactly) is verified without a manifest; one that cannot is compared as before', async () => {
    const made = restoringProvider();
    const asked: string[] = [];
    let proves = true;
    const provider = delegatingProvider(made.provider, {
      restoredExactly: async (_backend, snapshotId) => {
        asked.push(snapshotId);
        return proves;
      },
    });
    const { service, verifications } = serviceOver(provider);
    const id = await workspaceWith(service, { 'a.txt': 'one' });
    const { checkpoint_id } = await service.checkpoint({ runtime_id: id });
    // Its manifest would fail the restore: vouched for, it is never read.
    made.state.restore = 'manifest_fails';
    await service.checkout({ checkpoint_id });
    expect(asked).toHaveLength(1);
    expect(verifications.map((event) => event.outcome)).toEqual(['passed']);

    proves = false;
    const error = await rejectionOf(service.checkout({ checkpoint_id }));
    expect(error.message).toMatch(/manifest failed/);
    expect(asked).toHaveLength(2);
  });

  it('at most 100 differing paths are listed, with truncated set', async () => {
    const made = restoringProvider();
    const { service } = serviceOver(made.provider);
    const files = Object.fromEntries(Array.from({ length: 120 }, (_, index) => [`f${String(index).padStart(3, '0')}.txt`, `file ${index}`]));
    const id = await workspaceWith(service, files);
    const { checkpoint_id } = await service.checkpoint({ runtime_id: id });
    made.state.restore = 'loses_files';
    const error = await rejectionOf(service.checkout({ checkpoint_id }));
    const details = error.details as { differing_paths: Array<{ path: string }>; truncated: boolean };
    expect(details.truncated).toBe(true);
    expect(details.differing_paths).toHaveLength(100);
    expect(details.differing_paths[0]).toEqual({ path: 'f000.txt', change: 'removed' });
  });

  it('a resume whose restore lost files fails, the runtime stays paused, and a later faithful resume succeeds', async () => {
    const made = restoringProvider();
    const { service, store } = serviceOver(made.provider);
    const id = await workspaceWith(service, { 'a.txt': 'one' });
    await service.pause({ runtime_id: id });
    made.state.restore = 'loses_files';
    const error = await rejectionOf(service.resume({ runtime_id: id }));
    expect(error).toMatchObject({ code: 'checkpoint_verification_failed', details: { differing_paths: [{ path: 'a.txt', change: 'removed' }] } });
    expect((await service.get(id)).runtime.status).toBe('paused');
    expect(made.inner.liveBackendIds()).toHaveLength(0);
    expect(await store.listIntents()).toEqual([]);
    const events = await store.listEvents({ afterEventId: 0, limit: 100, types: ['verification.failed'] });
    expect(events.map((event) => event.data)).toEqual([{ operation: 'resume', differing_paths: 1, truncated: false }]);
    made.state.restore = 'faithful';
    await service.resume({ runtime_id: id });
    const read = await service.readFile({ runtime_id: id, path: 'a.txt' });
    expect(Buffer.from(read.content_base64, 'base64').toString()).toBe('one');
  });

  it('N-way: the one child whose restore went wrong fails on its own with the code; the others are created', async () => {
    const inner = createMemoryProvider();
    let checkouts = 0;
    const provider = delegatingProvider(inner, {
      checkout: async (request) => {
        checkouts += 1;
        return checkouts === 2 ? inner.create(request) : inner.checkout!(request);
      },
    });
    const { service } = serviceOver(provider);
    const id = await workspaceWith(service, { 'a.txt': 'one' });
    const { checkpoint_id } = await service.checkpoint({ runtime_id: id });
    const { results } = await service.checkout({ checkpoint_id, count: 3 });
    expect(results.filter((child) => 'error' in child)).toEqual([
      { error: expect.objectContaining({ code: 'checkpoint_verification_failed', details: expect.objectContaining({ checkpoint_id }) }) },
    ]);
    expect(results.filter((child) => 'runtime' in child)).toHaveLength(2);
    // The source and the two children: the failed child's backend was released.
    expect(inner.liveBackendIds()).toHaveLength(3);
  });

  it('fork N verifies its children as a checkout does', async () => {
    const made = restoringProvider();
    const { service } = serviceOver(made.provider);
    const id = await workspaceWith(service, { 'a.txt': 'one' });
    made.state.restore = 'alters_a_file';
    const error = await rejectionOf(service.forkRuntime({ runtime_id: id, count: 2 }));
    expect(error.code).toBe('checkpoint_verification_failed');
  });
});

describe('whether a restore is verified (the runtime’s `verify`, else the daemon’s verify_restores, else the provider’s default)', () => {
  /** A service over a lossy memory provider declaring `declared`, with the daemon's mode `mode`. */
  function lossyService(declared: 'default' | 'opt_in' | undefined, mode?: 'auto' | 'always' | 'never') {
    const made = restoringProvider();
    const { restoreVerification: _memoryOptIn, ...undeclared } = made.provider;
    const provider: BackendProviderV1 = declared === undefined ? undeclared : { ...undeclared, restoreVerification: declared };
    const store = new MemoryRuntimeStore();
    const verifications: RestoreVerificationEvent[] = [];
    const service = new RuntimeService({
      store,
      providers: [provider],
      defaultProvider: 'memory',
      observer: { restoreVerification: (event) => verifications.push(event) },
      ...(mode ? { restores: { verify: mode } } : {}),
    });
    return { service, state: made.state, verifications };
  }

  async function lossyCheckout(service: RuntimeService, state: { restore: Restore }, open: { verify?: boolean } = {}) {
    const { runtime } = await service.open({ conversation_id: 'c', sender_id: 's', ...open });
    await service.writeFile({ runtime_id: runtime.runtime_id, path: 'a.txt', content_base64: Buffer.from('one').toString('base64') });
    const { checkpoint_id } = await service.checkpoint({ runtime_id: runtime.runtime_id });
    state.restore = 'loses_files';
    return { runtimeId: runtime.runtime_id, outcome: await service.checkout({ checkpoint_id }).then(() => 'created', (error: { code: string }) => error.code) };
  }

  it('GET /providers says each provider’s default; one that declares none is opt-in', async () => {
    const declared = (await lossyService('default').service.providers()).providers[0]!.capabilities;
    const undeclared = (await lossyService(undefined).service.providers()).providers[0]!.capabilities;
    expect(declared.restore_verification).toBe('default');
    expect(undeclared.restore_verification).toBe('opt_in');
  });

  it('auto: a provider whose default is on verifies; an opt-in provider does not, and its restore is accepted unchecked', async () => {
    const on = lossyService('default');
    expect((await lossyCheckout(on.service, on.state)).outcome).toBe('checkpoint_verification_failed');
    const off = lossyService('opt_in');
    expect((await lossyCheckout(off.service, off.state)).outcome).toBe('created');
    expect(off.verifications).toEqual([]);
  });

  it('the runtime’s verify wins over the provider’s default, both ways, and is shown and changed by update', async () => {
    const optIn = lossyService('opt_in');
    const verified = await lossyCheckout(optIn.service, optIn.state, { verify: true });
    expect(verified.outcome).toBe('checkpoint_verification_failed');
    expect((await optIn.service.get(verified.runtimeId)).verify).toBe(true);
    const byDefault = lossyService('default');
    expect((await lossyCheckout(byDefault.service, byDefault.state, { verify: false })).outcome).toBe('created');
    const { runtime } = await byDefault.service.open({ conversation_id: 'c', sender_id: 's' });
    expect((await byDefault.service.get(runtime.runtime_id)).verify).toBeNull();
    await byDefault.service.update({ runtime_id: runtime.runtime_id, verify: false });
    expect((await byDefault.service.get(runtime.runtime_id)).verify).toBe(false);
    await byDefault.service.update({ runtime_id: runtime.runtime_id, verify: null });
    expect((await byDefault.service.get(runtime.runtime_id)).verify).toBeNull();
  });

  it('the daemon’s always verifies opt-in providers and never turns default ones off; a runtime’s own verify still wins', async () => {
    const always = lossyService('opt_in', 'always');
    expect((await lossyCheckout(always.service, always.state)).outcome).toBe('checkpoint_verification_failed');
    const never = lossyService('default', 'never');
    expect((await lossyCheckout(never.service, never.state)).outcome).toBe('created');
    const neverButAsked = lossyService('default', 'never');
    expect((await lossyCheckout(neverButAsked.service, neverButAsked.state, { verify: true })).outcome).toBe('checkpoint_verification_failed');
  });

  it('a checkout child inherits its source’s verify and so does the check of its own restores; resume follows the runtime’s', async () => {
    const { service, state } = lossyService('default');
    const { runtime } = await service.open({ conversation_id: 'c', sender_id: 's', verify: false });
    await service.writeFile({ runtime_id: runtime.runtime_id, path: 'a.txt', content_base64: Buffer.from('one').toString('base64') });
    const { checkpoint_id } = await service.checkpoint({ runtime_id: runtime.runtime_id });
    const child = await service.checkout({ checkpoint_id });
    expect((await service.get(child.runtime.runtime_id)).verify).toBe(false);
    await service.pause({ runtime_id: runtime.runtime_id });
    state.restore = 'loses_files';
    await service.resume({ runtime_id: runtime.runtime_id });
    await service.update({ runtime_id: runtime.runtime_id, verify: true });
    state.restore = 'faithful';
    await service.pause({ runtime_id: runtime.runtime_id });
    state.restore = 'loses_files';
    expect((await rejectionOf(service.resume({ runtime_id: runtime.runtime_id }))).code).toBe('checkpoint_verification_failed');
  });
});
