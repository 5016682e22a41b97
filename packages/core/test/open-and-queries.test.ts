import { describe, expect, it } from 'vitest';
import { MemoryRuntimeStore, MIN_IDLE_PAUSE_AFTER_MS, ProviderListResultSchema, ProviderRegistry, providerCapabilities, RuntimeOpenRequestSchema, RuntimeService, RuntimeUpdateRequestSchema } from '@runtimectl/core';
import { createMemoryProvider } from '@runtimectl/testkit';
import { createHarness, rejectionOf } from './harness';

describe('open, get, list and update', () => {
  it('open creates the backend and returns an idle runtime with a generated rt_ id', async () => {
    const h = createHarness();
    const result = await h.service.open({ conversation_id: 'c', sender_id: 's' });
    expect(result.created).toBe(true);
    expect(result.runtime.runtime_id).toMatch(/^rt_[0-9a-f]{32}$/);
    expect(result.runtime.status).toBe('idle');
    expect(h.provider.liveBackendIds()).toHaveLength(1);
  });

  it('re-opening an id with the same conversation and sender re-attaches without touching the backend', async () => {
    const h = createHarness();
    await h.open('agent');
    await h.write('agent', 'a.txt', 'a');
    const creates = h.provider.calls.create;
    const again = await h.service.open({ runtime_id: 'agent', conversation_id: 'conversation-1', sender_id: 'sender-1' });
    expect(again).toMatchObject({ created: false, runtime: { runtime_id: 'agent', status: 'idle' } });
    expect(h.provider.calls.create).toBe(creates);
    expect(await h.read('agent', 'a.txt')).toBe('a');
  });

  it('re-opening an id under another conversation or sender answers runtime_exists naming the runtime\'s own, to re-attach with', async () => {
    const h = createHarness();
    await h.open('agent');
    const error = await rejectionOf(h.service.open({ runtime_id: 'agent', conversation_id: 'other', sender_id: 'sender-1' }));
    expect(error).toMatchObject({
      code: 'runtime_exists',
      details: { runtime_id: 'agent', fields: ['conversation_id'], conversation_id: 'conversation-1', sender_id: 'sender-1' },
    });
    expect(error.message).toBe(
      'runtime agent already exists with a different conversation_id: it was opened by conversation conversation-1, sender sender-1; re-open it with those to re-attach, or choose another runtime_id',
    );
  });

  it('re-opening an id with a conflicting provider, metadata, provider_options or session_state answers runtime_exists naming the fields', async () => {
    const h = createHarness();
    await h.service.open({ runtime_id: 'agent', conversation_id: 'c', sender_id: 's', metadata: { team: 'a' }, session_state: { turn: 1 } });
    const reopen = (extra: Record<string, unknown>) =>
      rejectionOf(h.service.open({ runtime_id: 'agent', conversation_id: 'c', sender_id: 's', ...extra }));
    expect(await reopen({ provider: 'nosnap' })).toMatchObject({
      code: 'runtime_exists',
      details: { runtime_id: 'agent', fields: ['provider'] },
    });
    expect((await reopen({ metadata: { team: 'b' } })).details).toMatchObject({ fields: ['metadata'] });
    expect((await reopen({ session_state: { turn: 2 } })).details).toMatchObject({ fields: ['session_state'] });
    expect((await reopen({ provider: 'nosnap', metadata: {}, conversation_id: 'other' })).details).toMatchObject({
      fields: ['conversation_id', 'provider', 'metadata'],
    });
    const options = await rejectionOf(
      h.service.open({ runtime_id: 'agent', conversation_id: 'c', sender_id: 's', provider_options: { anything: 1 } }),
    );
    expect(options.code).toBe('runtime_exists');
    expect(options.details).toMatchObject({ fields: ['provider_options'] });
    expect(options.message).toMatch(/provider_options/);
    expect((await h.service.get('agent')).provider).toBe('memory');
  });

  it('re-opening with the same provider, metadata and session_state (in any key order) re-attaches, created:false', async () => {
    const h = createHarness();
    await h.service.open({ runtime_id: 'agent', conversation_id: 'c', sender_id: 's', metadata: { a: 1, b: [1, 2] }, session_state: { turn: 1 } });
    const again = await h.service.open({
      runtime_id: 'agent',
      conversation_id: 'c',
      sender_id: 's',
      provider: 'memory',
      provider_options: {},
      metadata: { b: [1, 2], a: 1 },
      session_state: { turn: 1 },
    });
    expect(again.created).toBe(false);
  });

  it('ids shaped like a checkout child cannot be opened by hand', () => {
    const parsed = RuntimeOpenRequestSchema.safeParse({
      runtime_id: `x:checkout:${'a'.repeat(32)}`,
      conversation_id: 'c',
      sender_id: 's',
    });
    expect(parsed.success).toBe(false);
  });

  it('idle_pause_after_ms is 0 (off) or at least MIN_IDLE_PAUSE_AFTER_MS (1 s, the shortest policy interval), at open and update', () => {
    const open = { conversation_id: 'c', sender_id: 's' };
    expect(MIN_IDLE_PAUSE_AFTER_MS).toBe(1_000);
    for (const ok of [0, 1_000, 60_000, null]) expect(RuntimeOpenRequestSchema.safeParse({ ...open, idle_pause_after_ms: ok }).success).toBe(true);
    for (const refused of [1, 500, 999]) {
      const parsed = RuntimeOpenRequestSchema.safeParse({ ...open, idle_pause_after_ms: refused });
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues[0]?.message).toBe('0 (off) or at least 1000 ms');
      expect(RuntimeUpdateRequestSchema.safeParse({ runtime_id: 'r', idle_pause_after_ms: refused }).success).toBe(false);
    }
  });

  it('an unknown provider is an invalid request naming the configured ones', async () => {
    const h = createHarness();
    const error = await rejectionOf(h.service.open({ conversation_id: 'c', sender_id: 's', provider: 'nope' }));
    expect(error.code).toBe('invalid_request');
    expect(error.message).toMatch(/memory, nosnap/);
  });

  it("an unknown provider's error ends with how to enable it, when the registry was given that hint", async () => {
    const providers = new ProviderRegistry([createMemoryProvider()], { unknownProviderHint: (id) => `enable it with [providers.${id}]` });
    const h = createHarness({ providers });
    const error = await rejectionOf(h.service.open({ conversation_id: 'c', sender_id: 's', provider: 'other' }));
    expect(error).toMatchObject({ code: 'invalid_request', details: { provider: 'other', configured: ['memory'] } });
    expect(error.message).toBe('unknown provider other (configured: memory). enable it with [providers.other]');
  });

  it('provider_options are refused for a provider that declares none', async () => {
    const h = createHarness();
    const error = await rejectionOf(
      h.service.open({ conversation_id: 'c', sender_id: 's', provider_options: { api_key: 'x' } }),
    );
    expect(error.code).toBe('invalid_request');
    expect(h.provider.calls.create).toBe(0);
  });

  it('get returns the detail view without any backend id', async () => {
    const h = createHarness();
    const id = await h.open();
    const detail = await h.service.get(id);
    expect(detail).toMatchObject({ provider: 'memory', head_checkpoint_id: null, parent_runtime_id: null, metadata: {} });
    expect(JSON.stringify(detail)).not.toMatch(/bkd_|mem_/);
  });

  it('lists runtimes by id, page by page, filtered by status', async () => {
    const h = createHarness();
    for (const id of ['c', 'a', 'e', 'b', 'd']) await h.open(id);
    await h.service.pause({ runtime_id: 'b' });
    const first = await h.service.list({ limit: 2 });
    const second = await h.service.list({ limit: 2, cursor: first.next_cursor! });
    const third = await h.service.list({ limit: 2, cursor: second.next_cursor! });
    expect([...first.runtimes, ...second.runtimes, ...third.runtimes].map((r) => r.runtime_id)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(third.next_cursor).toBeNull();
    expect((await h.service.list({ status: 'paused' })).runtimes.map((r) => r.runtime_id)).toEqual(['b']);
  });

  it('a runtime with an operation in flight is listed as running', async () => {
    const h = createHarness();
    const id = await h.open();
    const blocked = h.service.exec({ runtime_id: id, command: 'block' });
    await h.gate.started;
    expect((await h.service.list({ status: 'running' })).runtimes.map((r) => r.runtime_id)).toEqual([id]);
    expect(await h.service.runtimeCounts()).toMatchObject({ running: 1, idle: 0 });
    h.gate.release();
    await blocked;
    expect((await h.service.list({ status: 'running' })).runtimes).toEqual([]);
  });

  it('data operations share the runtime lock: two execs run at once', async () => {
    const h = createHarness();
    const id = await h.open();
    const blocked = h.service.exec({ runtime_id: id, command: 'block' });
    await h.gate.started;
    const result = await h.service.exec({ runtime_id: id, command: 'echo alongside' });
    expect(Buffer.from(result.stdout_base64, 'base64').toString()).toBe('alongside\n');
    h.gate.release();
    await blocked;
  });

  it('update replaces session_state and metadata and fails fast while an operation runs', async () => {
    const h = createHarness();
    const id = await h.open();
    await h.service.update({ runtime_id: id, session_state: { step: 2 }, metadata: { owner: 'x' } });
    expect(await h.service.get(id)).toMatchObject({ session_state: { step: 2 }, metadata: { owner: 'x' } });
    const blocked = h.service.exec({ runtime_id: id, command: 'block' });
    await h.gate.started;
    expect((await rejectionOf(h.service.update({ runtime_id: id, metadata: {} }))).code).toBe('session_busy');
    h.gate.release();
    await blocked;
  });

  it('reports each provider with capabilities derived from its methods: checkpoint everywhere, snapshot where it has one', async () => {
    const h = createHarness();
    expect((await h.service.providers()).providers).toEqual([
      { provider: 'memory', capabilities: { checkpoint: true, snapshot: true, checkout: true, delete_snapshot: true, pause: true, snapshot_kind: 'filesystem', restore_verification: 'opt_in' }, in_force: {} },
      { provider: 'nosnap', capabilities: { checkpoint: true, snapshot: false, checkout: false, delete_snapshot: false, pause: false, snapshot_kind: null, restore_verification: null }, in_force: {} },
    ]);
  });

  it('shows the settings each provider chose for this machine (in_force), without host paths, and null when it could not say', async () => {
    const choosing = Object.assign(createMemoryProvider({ providerId: 'choosing' }), {
      settingsInForce: async () => ({ snapshot_store: { value: 'copy', reason: "mount of /var/lib/runtimectl/probe failed: EPERM ('/tmp/x y')" }, isolation: { value: 'namespace' } }),
    });
    const failing = Object.assign(createMemoryProvider({ providerId: 'failing' }), {
      settingsInForce: async () => {
        throw new Error('probe crashed at /srv/secret');
      },
    });
    const service = new RuntimeService({ store: new MemoryRuntimeStore(), providers: [choosing, failing], defaultProvider: 'choosing' });
    const listed = (await service.providers()).providers;
    expect(listed.map((entry) => [entry.provider, entry.in_force])).toEqual([
      ['choosing', { snapshot_store: { value: 'copy', reason: "mount of <path> failed: EPERM ('<path> y')" }, isolation: { value: 'namespace' } }],
      ['failing', null],
    ]);
    expect(ProviderListResultSchema.parse({ providers: listed })).toEqual({ providers: listed });
  });

  it('snapshot_kind is what the provider declares (memory: processes too), filesystem when it declares nothing (the lesser promise), null without snapshots', () => {
    expect(providerCapabilities(Object.assign(createMemoryProvider(), { snapshotKind: 'memory' as const })).snapshot_kind).toBe('memory');
    expect(providerCapabilities(Object.assign(createMemoryProvider(), { snapshotKind: undefined })).snapshot_kind).toBe('filesystem');
    expect(providerCapabilities(Object.assign(createMemoryProvider({ snapshots: false }), { snapshotKind: 'memory' as const })).snapshot_kind).toBeNull();
  });
});
