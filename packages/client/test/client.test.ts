import type { AddressInfo } from 'node:net';
import { MemoryRuntimeStore, RuntimeService, SessionBusyError as CoreSessionBusyError } from '@runtimectl/core';
import { buildServer } from '@runtimectl/server-http';
import { createMemoryProvider } from '@runtimectl/testkit';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CheckpointSnapshotDeletedError,
  ClientTimeoutError,
  createRuntimectlClient,
  DaemonUnreachableError,
  InvalidRequestError,
  RuntimeNotFoundError,
  SessionBusyError,
  UnauthorizedError,
  UnsupportedBackendError,
  type RuntimectlClient,
} from '../src/index';

const TOKEN = 'client-test-token';
let baseUrl: string;
let close: () => Promise<void>;
let client: RuntimectlClient;
let releaseBlock: () => void = () => {};
let blockStarted: Promise<void> = Promise.resolve();

beforeAll(async () => {
  const execHandler = async (request: { command: string }) => {
    if (request.command !== 'block') return undefined;
    await new Promise<void>((resolve) => (releaseBlock = resolve));
    return { stdout: 'done\n' };
  };
  const store = new MemoryRuntimeStore();
  const service = new RuntimeService({
    store,
    providers: [
      createMemoryProvider({ execHandler }),
      createMemoryProvider({ providerId: 'nosnap', snapshots: false }),
      // As if its commands had left two jobs running: every snapshot is taken while they run.
      createMemoryProvider({ providerId: 'busy', backgroundProcesses: () => 2 }),
    ],
    defaultProvider: 'memory',
    // The service is the fleet node the server is: the runtimes it opens are home there.
    node: { nodeId: 'node-1', leaseMs: 15_000 },
  });
  const node = { nodeId: 'node-1', advertiseUrl: null, version: '0.0.0-test', startedAtMs: 1, heartbeatAtMs: 2, alive: true };
  const directory = {
    nodes: async () => [{ ...node, runtimes: 0 }],
    nodeStates: async () => [node],
    storeTimeMs: async () => Date.now(),
  };
  const app = buildServer({
    service,
    config: { version: '0.0.0-test', auth: { bearerToken: TOKEN } },
    logger: pino({ level: 'silent' }),
    fleet: { nodeId: 'node-1', directory, homes: store },
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  close = () => app.close();
  client = createRuntimectlClient({ baseUrl, token: TOKEN });
});

afterAll(() => close());

async function openRuntime(provider?: string) {
  const { runtime } = await client.open({ conversation_id: 'c', sender_id: 's', ...(provider ? { provider } : {}) });
  return runtime.runtime_id;
}

describe('RuntimectlClient against a real server', () => {
  it('drives a runtime through write, exec, checkpoint, checkout and close', async () => {
    const id = await openRuntime();
    await client.writeFileBytes(id, 'notes.txt', 'v1');
    const exec = await client.exec({ runtime_id: id, command: 'cat notes.txt' });
    expect(Buffer.from(exec.stdout_base64, 'base64').toString()).toBe('v1');
    const checkpoint = await client.checkpoint({ runtime_id: id, name: 'v1' });
    await client.writeFileBytes(id, 'notes.txt', 'v2');
    const child = await client.checkout({ checkpoint_id: checkpoint.checkpoint_id });
    expect(Buffer.from(await client.readFileBytes(child.runtime.runtime_id, 'notes.txt')).toString()).toBe('v1');
    expect((await client.get(child.runtime.runtime_id)).parent_runtime_id).toBe(id);
    expect((await client.listCheckpoints(id)).checkpoints[0]?.checkpoint_id).toBe(checkpoint.checkpoint_id);
    expect((await client.getCheckpoint(checkpoint.checkpoint_id)).name).toBe('v1');
    const closed = await client.close({ runtime_id: id, cascade: true });
    expect(closed.closed_runtime_ids).toEqual([id, child.runtime.runtime_id]);
  });

  it('diff lists what changed between two checkpoints and against the live workspace; ManifestUnavailableError without manifests', async () => {
    const id = await openRuntime();
    await client.writeFileBytes(id, 'notes.txt', 'v1');
    const first = await client.checkpoint({ runtime_id: id });
    await client.writeFileBytes(id, 'notes.txt', 'v2, longer');
    const second = await client.checkpoint({ runtime_id: id });
    const diff = await client.diff({ from_checkpoint_id: first.checkpoint_id, to_checkpoint_id: second.checkpoint_id });
    expect(diff.entries).toMatchObject([{ path: 'notes.txt', change: 'modified', old_size: 2, new_size: 10 }]);
    await client.writeFileBytes(id, 'live.txt', 'l');
    expect((await client.diff({ from_checkpoint_id: second.checkpoint_id, to_runtime_id: id })).entries.map(({ path }) => path)).toEqual(['live.txt']);
    await client.close({ runtime_id: id, cascade: true });
  });

  it("checkpointTree lists a checkpoint's directory from its manifest, not the runtime's files; list items carry provider and lineage", async () => {
    const id = await openRuntime();
    await client.writeFileBytes(id, 'src/app.ts', 'export {}');
    const checkpoint = await client.checkpoint({ runtime_id: id });
    await client.writeFileBytes(id, 'src/later.ts', 'later');
    expect((await client.checkpointTree(checkpoint.checkpoint_id)).entries).toMatchObject([{ name: 'src', kind: 'directory' }]);
    const src = await client.checkpointTree(checkpoint.checkpoint_id, { path: 'src' });
    expect(src.entries.map(({ name, size }) => `${name} ${size}`)).toEqual(['app.ts 9']);
    const listed = (await client.list({ limit: 500 })).runtimes.find((runtime) => runtime.runtime_id === id);
    expect(listed).toMatchObject({ provider: expect.any(String), parent_runtime_id: null, forked_from_checkpoint_id: null });
    await client.close({ runtime_id: id, cascade: true });
  });

  it('checkpoint, fork and pause answers say how many background processes ran as their snapshot was taken', async () => {
    const { runtime } = await client.open({ conversation_id: 'c', sender_id: 's', provider: 'busy' });
    const id = runtime.runtime_id;
    // Only an exec can leave processes running: before one, nothing is counted.
    await client.exec({ runtime_id: id, command: 'echo started' });
    expect(await client.checkpoint({ runtime_id: id })).toMatchObject({ reused_backend_snapshot: false, background_processes: 2 });
    expect(await client.fork({ runtime_id: id })).toMatchObject({ reused_backend_snapshot: false, background_processes: 2 });
    expect((await client.pause({ runtime_id: id })).background_processes).toBe(2);
    await client.close({ runtime_id: id, cascade: true });
  });

  it('checkout with count answers one result per child; fork checkpoints once and checks it out count ways', async () => {
    const id = await openRuntime();
    await client.writeFileBytes(id, 'notes.txt', 'v1');
    const checkpoint = await client.checkpoint({ runtime_id: id });
    const many = await client.checkout({ checkpoint_id: checkpoint.checkpoint_id, count: 3 });
    expect(many.results).toHaveLength(3);
    for (const child of many.results) {
      if (!('runtime' in child)) throw new Error(JSON.stringify(child));
      expect(Buffer.from(await client.readFileBytes(child.runtime.runtime_id, 'notes.txt')).toString()).toBe('v1');
    }
    const forked = await client.fork({ runtime_id: id, count: 2, name: 'branch' });
    expect(forked).toMatchObject({ source_runtime_id: id, reused_backend_snapshot: true });
    expect(forked.results.filter((child) => 'runtime' in child)).toHaveLength(2);
    await expect(client.checkout({ checkpoint_id: checkpoint.checkpoint_id, count: 0 })).rejects.toBeInstanceOf(InvalidRequestError);
    await client.close({ runtime_id: id, cascade: true });
  });

  it('covers the remaining routes: health, providers, list, update, stat, mkdir, search, export, pause, resume, delete-snapshot', async () => {
    expect(await client.health()).toEqual({ status: 'ok', version: '0.0.0-test' });
    expect((await client.providers()).providers.map((p) => p.provider)).toEqual(['memory', 'nosnap', 'busy']);
    const id = await openRuntime();
    expect((await client.list({ limit: 500 })).runtimes.some((r) => r.runtime_id === id)).toBe(true);
    await client.update({ runtime_id: id, session_state: { turn: 3 } });
    expect((await client.get(id)).session_state).toEqual({ turn: 3 });
    await client.mkdir({ runtime_id: id, path: 'src' });
    await client.writeFileBytes(id, 'src/a.ts', 'export const a = 1;\n');
    expect(await client.stat({ runtime_id: id, path: 'src/a.ts' })).toMatchObject({ exists: true, kind: 'file', size_bytes: 20 });
    expect(await client.search({ runtime_id: id, glob: '**/*.ts' })).toEqual({ paths: ['src/a.ts'], truncated: false });
    const exported = await client.export({ runtime_id: id, path: 'src/a.ts' });
    expect(exported.fileName).toBe('a.ts');
    expect(await new Response(exported.body).text()).toBe('export const a = 1;\n');
    const paused = await client.pause({ runtime_id: id });
    expect(paused.runtime.status).toBe('paused');
    await client.resume({ runtime_id: id });
    const deleted = await client.close({ runtime_id: id });
    expect(deleted.deleted_snapshot_ids).toHaveLength(1);
    const snapshotDelete = await client.deleteCheckpointSnapshot({ checkpoint_id: paused.checkpoint_id });
    expect(snapshotDelete.deleted_provider_snapshot).toBe(false);
  });

  it('lists the fleet\'s nodes and asks for readiness', async () => {
    expect(await client.nodes()).toEqual({
      nodes: [{ node_id: 'node-1', advertise_url: null, version: '0.0.0-test', started_at_ms: 1, last_heartbeat_at_ms: 2, alive: true, runtimes: 0 }],
    });
    expect(await client.ready()).toEqual({ status: 'ready', node_id: 'node-1' });
  });

  it("raises the server's errors as classes carrying code, details, status and request id", async () => {
    const error = await client.get('missing-runtime').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RuntimeNotFoundError);
    expect(error).toMatchObject({ code: 'runtime_not_found', status: 404, details: { runtime_id: 'missing-runtime' } });
    expect((error as RuntimeNotFoundError).requestId).toBeTruthy();

    const local = await openRuntime('nosnap');
    const checkpoint = await client.checkpoint({ runtime_id: local });
    await expect(client.checkout({ checkpoint_id: checkpoint.checkpoint_id })).rejects.toBeInstanceOf(UnsupportedBackendError);

    const id = await openRuntime();
    const snapshot = await client.checkpoint({ runtime_id: id });
    await client.deleteCheckpointSnapshot({ checkpoint_id: snapshot.checkpoint_id });
    await expect(client.checkout({ checkpoint_id: snapshot.checkpoint_id })).rejects.toBeInstanceOf(CheckpointSnapshotDeletedError);
  });

  it('a busy runtime raises SessionBusyError, which core recognises as its own', async () => {
    const id = await openRuntime();
    const blocked = client.exec({ runtime_id: id, command: 'block' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const error = await client.checkpoint({ runtime_id: id }).catch((e: unknown) => e);
    releaseBlock();
    await blocked;
    expect(error).toBeInstanceOf(SessionBusyError);
    expect(CoreSessionBusyError.isInstance(error)).toBe(true);
  });

  it('checks requests before sending them', async () => {
    const error = await client.checkout({ checkpoint_id: 'not-a-checkpoint' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect((error as InvalidRequestError).status).toBe(0);
    expect((error as InvalidRequestError).message).toMatch(/checkpoint_id/);
  });

  it('a wrong token raises UnauthorizedError', async () => {
    const stranger = createRuntimectlClient({ baseUrl, token: 'wrong' });
    await expect(stranger.list()).rejects.toBeInstanceOf(UnauthorizedError);
  });

  it('an unreachable daemon raises DaemonUnreachableError after its retries', async () => {
    const nobody = createRuntimectlClient({ baseUrl: 'http://127.0.0.1:9', retries: 1 });
    const error = await nobody.health().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DaemonUnreachableError);
    expect((error as Error).message).toMatch(/127\.0\.0\.1:9/);
  });

  it('a POST whose connection broke after it was sent may have run: the error says so and names its Idempotency-Key', async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    const closed = Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' });
    let calls = 0;
    const dying: typeof fetch = async () => {
      calls += 1;
      throw new TypeError('fetch failed', { cause: calls === 1 ? closed : refused });
    };
    const client = createRuntimectlClient({ baseUrl: 'http://127.0.0.1:9', fetch: dying, idempotencyKeys: () => 'key-1' });
    const lost = (await client.checkpoint({ runtime_id: 'r' }).catch((e: unknown) => e)) as DaemonUnreachableError;
    expect(lost).toBeInstanceOf(DaemonUnreachableError);
    expect(lost).toMatchObject({ requestMayHaveRun: true, idempotencyKey: 'key-1' });
    calls = 1; // every attempt refused: never sent
    const never = (await client.checkpoint({ runtime_id: 'r' }).catch((e: unknown) => e)) as DaemonUnreachableError;
    expect(never).toMatchObject({ requestMayHaveRun: false, idempotencyKey: 'key-1' });
    calls = 0; // a GET changes nothing, whatever broke
    expect(await client.health().catch((e: unknown) => e)).toMatchObject({ requestMayHaveRun: false, idempotencyKey: undefined });
  });

  it('takes its Idempotency-Keys from idempotencyKeys when given, one per POST', async () => {
    const seen: string[] = [];
    const recording: typeof fetch = async (input, init) => {
      seen.push(new Headers(init?.headers).get('idempotency-key') ?? '');
      return fetch(input, init);
    };
    let next = 0;
    const keyed = createRuntimectlClient({ baseUrl, token: TOKEN, fetch: recording, idempotencyKeys: () => `mine-${(next += 1)}` });
    await keyed.open({ conversation_id: 'c', sender_id: 's' });
    await keyed.open({ conversation_id: 'c', sender_id: 's' });
    expect(seen).toEqual(['mine-1', 'mine-2']);
  });

  it('gives up after its timeout with ClientTimeoutError', async () => {
    const impatient = createRuntimectlClient({ baseUrl, token: TOKEN, timeoutMs: 100 });
    const id = await openRuntime();
    const error = await impatient.exec({ runtime_id: id, command: 'block' }).catch((e: unknown) => e);
    releaseBlock();
    expect(error).toBeInstanceOf(ClientTimeoutError);
  });

  it('sends one Idempotency-Key per POST and the same key on every retry of it', async () => {
    const seen: string[] = [];
    let calls = 0;
    const flaky: typeof fetch = async (input, init) => {
      calls += 1;
      seen.push(new Headers(init?.headers).get('idempotency-key') ?? '');
      if (calls === 1) throw new TypeError('fetch failed', { cause: new Error('ECONNRESET') });
      return fetch(input, init);
    };
    const retrying = createRuntimectlClient({ baseUrl, token: TOKEN, fetch: flaky });
    await retrying.open({ conversation_id: 'c', sender_id: 's' });
    await retrying.open({ conversation_id: 'c', sender_id: 's' });
    expect(seen).toHaveLength(3);
    expect(seen[0]).toBe(seen[1]);
    expect(seen[2]).not.toBe(seen[1]);
  });
});
