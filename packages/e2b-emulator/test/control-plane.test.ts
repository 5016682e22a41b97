/** The sandbox lifecycle through the real e2b SDK: create, connect, pause, info, list, timeout, kill. */
import { Sandbox, SandboxError, SandboxNotFoundError } from 'e2b';
import { describe, expect, it } from 'vitest';
import { useEmulator } from './support/emulator-fixture.js';

const fixture = useEmulator({ templates: ['my-template'] });

describe('control plane with the real e2b SDK', () => {
  it('creates a sandbox from base with /home/user present and reports it in getInfo', async () => {
    const sandbox = await Sandbox.create('base', { ...fixture.sdk, metadata: { owner: 'rcc' }, timeoutMs: 120_000 });
    expect(sandbox.sandboxId).toMatch(/^[a-z0-9]{20}$/);
    expect(await sandbox.files.exists('/home/user')).toBe(true);
    const info = await sandbox.getInfo();
    expect(info).toMatchObject({ sandboxId: sandbox.sandboxId, templateId: 'base', state: 'running', metadata: { owner: 'rcc' } });
    const lifetimeMs = info.endAt.getTime() - info.startedAt.getTime();
    expect(lifetimeMs).toBe(120_000);
    expect(await sandbox.kill()).toBe(true);
  });

  it('creates from a configured template, and an unknown template is a 404 SandboxError', async () => {
    const sandbox = await Sandbox.create('my-template', fixture.sdk);
    expect((await sandbox.getInfo()).templateId).toBe('my-template');
    await sandbox.kill();
    const error = await Sandbox.create('no-such-template', fixture.sdk).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SandboxError);
    expect((error as SandboxError).message).toContain("404: template 'no-such-template' not found");
  });

  it('kill answers true, then false for the same id, and the sandbox is gone from the state', async () => {
    const sandbox = await Sandbox.create(fixture.sdk);
    expect(await Sandbox.kill(sandbox.sandboxId, fixture.sdk)).toBe(true);
    expect(await Sandbox.kill(sandbox.sandboxId, fixture.sdk)).toBe(false);
    const state = await fixture.emulator.state();
    expect(state.sandboxes.map((entry) => entry.sandboxId)).not.toContain(sandbox.sandboxId);
  });

  it('pause keeps the files, answers false when already paused, and connect resumes', async () => {
    const sandbox = await Sandbox.create(fixture.sdk);
    await sandbox.files.write('/home/user/kept.txt', 'still here');
    expect(await sandbox.pause()).toBe(true);
    expect(await Sandbox.pause(sandbox.sandboxId, fixture.sdk)).toBe(false);
    expect((await Sandbox.getInfo(sandbox.sandboxId, fixture.sdk)).state).toBe('paused');
    // envd of a paused sandbox is unreachable, as in E2B
    expect(await sandbox.isRunning()).toBe(false);

    const resumed = await Sandbox.connect(sandbox.sandboxId, fixture.sdk);
    expect((await resumed.getInfo()).state).toBe('running');
    expect(await resumed.files.read('/home/user/kept.txt')).toBe('still here');
    await resumed.kill();
  });

  it('connect to a running sandbox extends but never shortens its timeout', async () => {
    const sandbox = await Sandbox.create({ ...fixture.sdk, timeoutMs: 600_000 });
    const before = (await sandbox.getInfo()).endAt.getTime();
    await Sandbox.connect(sandbox.sandboxId, { ...fixture.sdk, timeoutMs: 10_000 });
    expect((await sandbox.getInfo()).endAt.getTime()).toBe(before);
    await Sandbox.connect(sandbox.sandboxId, { ...fixture.sdk, timeoutMs: 900_000 });
    expect((await sandbox.getInfo()).endAt.getTime()).toBeGreaterThan(before);
    await sandbox.kill();
  });

  it('setTimeout moves endAt, and unknown sandboxes give SandboxNotFoundError', async () => {
    const sandbox = await Sandbox.create(fixture.sdk);
    await sandbox.setTimeout(30_000);
    const info = await sandbox.getInfo();
    expect(info.endAt.getTime() - Date.now()).toBeLessThanOrEqual(30_000);
    expect(info.endAt.getTime() - Date.now()).toBeGreaterThan(20_000);
    await sandbox.kill();

    await expect(Sandbox.getInfo(sandbox.sandboxId, fixture.sdk)).rejects.toBeInstanceOf(SandboxNotFoundError);
    await expect(Sandbox.setTimeout(sandbox.sandboxId, 1000, fixture.sdk)).rejects.toBeInstanceOf(SandboxNotFoundError);
    await expect(Sandbox.pause(sandbox.sandboxId, fixture.sdk)).rejects.toBeInstanceOf(SandboxNotFoundError);
    await expect(Sandbox.connect(sandbox.sandboxId, fixture.sdk)).rejects.toBeInstanceOf(SandboxNotFoundError);
  });

  it('lists with a metadata filter (keys and values needing encoding), a state filter and paging', async () => {
    const tag = `run-${Date.now()}`;
    const metadata = { 'list tag': tag, 'k&y': 'v=1&2' };
    const created = [];
    for (let index = 0; index < 5; index += 1) created.push(await Sandbox.create({ ...fixture.sdk, metadata }));
    const other = await Sandbox.create({ ...fixture.sdk, metadata: { 'list tag': 'other' } });
    await created[0]?.pause();

    const seen: string[] = [];
    const pages: number[] = [];
    const paginator = Sandbox.list({ ...fixture.sdk, query: { metadata }, limit: 2 });
    while (paginator.hasNext) {
      const items = await paginator.nextItems();
      pages.push(items.length);
      seen.push(...items.map((item) => item.sandboxId));
      for (const item of items) expect(item.metadata).toEqual(metadata);
    }
    expect(pages).toEqual([2, 2, 1]);
    expect(new Set(seen)).toEqual(new Set(created.map((sandbox) => sandbox.sandboxId)));

    const running = await Sandbox.list({ ...fixture.sdk, query: { metadata, state: ['running'] } }).nextItems();
    expect(running.map((item) => item.sandboxId).sort()).toEqual(created.slice(1).map((sandbox) => sandbox.sandboxId).sort());
    const paused = await Sandbox.list({ ...fixture.sdk, query: { metadata, state: ['paused'] } }).nextItems();
    expect(paused.map((item) => item.state)).toEqual(['paused']);

    for (const sandbox of [...created, other]) await Sandbox.kill(sandbox.sandboxId, fixture.sdk);
  });

  it('startedAfter includes a sandbox started exactly at that instant, as E2B does', async () => {
    const metadata = { 'started after': `run-${Date.now()}` };
    const sandbox = await Sandbox.create({ ...fixture.sdk, metadata });
    const { startedAt } = await sandbox.getInfo();
    const atThatInstant = await Sandbox.list({ ...fixture.sdk, query: { metadata, startedAfter: startedAt } }).nextItems();
    expect(atThatInstant.map((item) => item.sandboxId)).toEqual([sandbox.sandboxId]);
    const later = await Sandbox.list({ ...fixture.sdk, query: { metadata, startedAfter: new Date(startedAt.getTime() + 1) } }).nextItems();
    expect(later).toEqual([]);
    await sandbox.kill();
  });

  it('answers 401 with a code body when X-API-KEY is missing, and v1 create works for older SDKs', async () => {
    const unauthorized = await fetch(`${fixture.emulator.apiUrl}/v2/sandboxes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ templateID: 'base' }),
    });
    expect(unauthorized.status).toBe(401);
    expect(await unauthorized.json()).toMatchObject({ code: 401 });

    const v1 = await fetch(`${fixture.emulator.apiUrl}/sandboxes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'k' },
      body: JSON.stringify({ templateID: 'base', timeout: 60, secure: true, allow_internet_access: true }),
    });
    expect(v1.status).toBe(201);
    const body = (await v1.json()) as { sandboxID: string; envdAccessToken: string; envdVersion: string };
    expect(body.envdAccessToken).toMatch(/^[0-9a-f]{48}$/);
    expect(await Sandbox.kill(body.sandboxID, fixture.sdk)).toBe(true);
  });

  it('refuses envd calls with a wrong access token', async () => {
    const sandbox = await Sandbox.create(fixture.sdk);
    const response = await fetch(`${fixture.emulator.sandboxUrl}/files?path=/home/user`, {
      headers: { 'e2b-sandbox-id': sandbox.sandboxId, 'x-access-token': 'wrong' },
    });
    expect(response.status).toBe(401);
    await sandbox.kill();
  });
});
