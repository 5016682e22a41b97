import { describe, expect, test, type TestContext } from 'vitest';
import {
  CheckpointViewSchema,
  RuntimeCheckoutResultSchema,
  RuntimeCheckpointResultSchema,
  RuntimeCheckpointSnapshotDeleteResultSchema,
  RuntimePauseResultSchema,
} from '@runtimectl/core';
import { segment } from './api-client';
import { expectApiError, expectOk, type ApiSuiteContext } from './api-suite-context';

const CHILD_SUFFIX = /:checkout:[0-9a-f]{32}$/;

/**
 * The checkpoint / checkout / pause / resume / delete-snapshot / close semantics of the
 * contract, on the named snapshot-capable provider. `session_busy` is not provoked here: it
 * needs an operation held in flight, which a black-box client cannot arrange reliably.
 */
export function snapshotSemanticsTests(context: ApiSuiteContext): void {
  const { client, options } = context;
  const testMs = options.timeouts.testMs;
  const provider = options.snapshotProvider;

  const skipUnlessNamed = (ctx: TestContext) => {
    if (provider === undefined) ctx.skip('no snapshotProvider named: snapshot semantics not run');
  };
  const open = (name: string, extra: Record<string, unknown> = {}) => context.open(name, { provider, ...extra });
  const { writeText: write, readText } = context;
  const checkpoint = async (runtimeId: string, extra: Record<string, unknown> = {}) => {
    const response = await client.post('/api/v1/runtimes/checkpoint', { runtime_id: runtimeId, ...extra });
    expectOk(response);
    return RuntimeCheckpointResultSchema.parse(response.body);
  };
  const checkout = async (checkpointId: string, extra: Record<string, unknown> = {}) => {
    const response = await client.post('/api/v1/runtimes/checkout', { checkpoint_id: checkpointId, ...extra });
    expectOk(response);
    return RuntimeCheckoutResultSchema.parse(response.body);
  };
  const view = async (checkpointId: string) => {
    const response = await client.get(`/api/v1/checkpoints/${checkpointId}`);
    expectOk(response);
    return CheckpointViewSchema.parse(response.body);
  };
  const detail = async (runtimeId: string) => {
    const response = await client.get(`/api/v1/runtimes/${segment(runtimeId)}`);
    expectOk(response);
    return response.body;
  };
  const close = async (runtimeId: string, extra: Record<string, unknown> = {}) => {
    const response = await client.post('/api/v1/runtimes/close', { runtime_id: runtimeId, ...extra });
    expectOk(response);
    return response.body;
  };

  describe('snapshot semantics', () => {
    test('checkpoint of a clean runtime reuses its snapshot; writes and exec make the next one fresh; reads do not', async (ctx) => {
      skipUnlessNamed(ctx);
      await open('reuse');
      const id = context.runtimeId('reuse');
      await write(id, 'a.txt', 'one');
      const first = await checkpoint(id, { name: 'first', metadata: { step: 1 } });
      expect(first).toMatchObject({ reused_backend_snapshot: false, parent_checkpoint_id: null, name: 'first', metadata: { step: 1 } });
      expect(first.checkpoint_id).toMatch(/^rtcp_[0-9a-f]{32}$/);
      const clean = await checkpoint(id);
      expect(clean).toMatchObject({ reused_backend_snapshot: true, parent_checkpoint_id: first.checkpoint_id, name: null, metadata: {} });
      for (const [route, body] of [
        ['read-file', { path: 'a.txt' }],
        ['stat', { path: 'a.txt' }],
        ['search', { glob: '*' }],
        ['export', { path: 'a.txt' }],
      ] as const) {
        expect((await client.post(`/api/v1/runtimes/${route}`, { runtime_id: id, ...body })).status, route).toBe(200);
      }
      expect((await checkpoint(id)).reused_backend_snapshot, 'after reads only').toBe(true);
      expectOk(await client.post('/api/v1/runtimes/exec', { runtime_id: id, command: 'exit 1' }));
      expect((await checkpoint(id)).reused_backend_snapshot, 'after exec, even with a non-zero exit').toBe(false);
      expectOk(await client.post('/api/v1/runtimes/mkdir', { runtime_id: id, path: 'newdir' }));
      expect((await checkpoint(id)).reused_backend_snapshot, 'after mkdir').toBe(false);
      expect((await detail(id)).head_checkpoint_id).toEqual(expect.stringMatching(/^rtcp_/));
      expect((await view(first.checkpoint_id)).has_provider_snapshot).toBe(true);
    }, testMs);

    test('checkout creates <root>:checkout:<32hex> from the checkpoint\'s content; its first checkpoint reuses the parent\'s snapshot', async (ctx) => {
      skipUnlessNamed(ctx);
      await open('branch', { metadata: { origin: 'parent', shared: true } });
      const id = context.runtimeId('branch');
      await write(id, 'state.txt', 'at-checkpoint');
      const base = await checkpoint(id);
      await write(id, 'state.txt', 'after-checkpoint');

      const child = await checkout(base.checkpoint_id, { sender_id: 'other-sender', metadata: { origin: 'child' } });
      const childId = child.runtime.runtime_id;
      expect(childId.startsWith(`${id}:checkout:`)).toBe(true);
      expect(childId).toMatch(CHILD_SUFFIX);
      expect(child).toMatchObject({ checkpoint_id: base.checkpoint_id, source_runtime_id: id });
      expect(child.runtime).toMatchObject({ conversation_id: 'conformance', sender_id: 'other-sender', status: 'idle' });
      expect(await readText(childId, 'state.txt')).toBe('at-checkpoint');
      expect(await readText(id, 'state.txt')).toBe('after-checkpoint');

      for (const path of [`/api/v1/runtimes/${childId}`, `/api/v1/runtimes/${segment(childId)}`]) {
        const fetched = await client.get(path);
        expectOk(fetched);
        expect(fetched.body).toMatchObject({
          parent_runtime_id: id,
          forked_from_checkpoint_id: base.checkpoint_id,
          metadata: { origin: 'child', shared: true },
        });
      }
      for (const path of [`/api/v1/runtimes/${childId}/checkpoints`, `/api/v1/runtimes/${segment(childId)}/checkpoints`]) {
        expectOk(await client.get(path));
      }

      const childFirst = await checkpoint(childId);
      expect(childFirst).toMatchObject({ reused_backend_snapshot: true, parent_checkpoint_id: base.checkpoint_id });

      const grandchild = await checkout(childFirst.checkpoint_id);
      expect(grandchild.runtime.runtime_id.startsWith(`${id}:checkout:`), 'ids stay bounded: the root, not the child').toBe(true);
      expect(grandchild.runtime.runtime_id).toMatch(CHILD_SUFFIX);
      expect(grandchild.runtime.runtime_id).not.toBe(childId);
    }, testMs);

    test('concurrent checkouts of one checkpoint all succeed, each a runtime of its own with the checkpoint\'s content', async (ctx) => {
      skipUnlessNamed(ctx);
      await open('fan-out');
      const id = context.runtimeId('fan-out');
      await write(id, 'state.txt', 'fan-out-start');
      const base = await checkpoint(id);
      const children = await Promise.all(Array.from({ length: 5 }, () => checkout(base.checkpoint_id)));
      expect(new Set(children.map((child) => child.runtime.runtime_id)).size).toBe(5);
      for (const child of children) expect(await readText(child.runtime.runtime_id, 'state.txt')).toBe('fan-out-start');
      expect((await close(id, { cascade: true })).closed_runtime_ids).toHaveLength(6);
    }, testMs);

    test('pause keeps the id and releases work; a paused runtime refuses data operations, its checkpoint reuses the pause snapshot; resume restores it', async (ctx) => {
      skipUnlessNamed(ctx);
      await open('nap', { metadata: { a: 1 } });
      const id = context.runtimeId('nap');
      await write(id, 'kept.txt', 'before pause');
      const pausedResponse = await client.post('/api/v1/runtimes/pause', { runtime_id: id, name: 'nap' });
      expectOk(pausedResponse);
      const paused = RuntimePauseResultSchema.parse(pausedResponse.body);
      expect(paused).toMatchObject({ runtime: { runtime_id: id, status: 'paused' }, name: 'nap' });
      expect(await detail(id)).toMatchObject({ paused_checkpoint_id: paused.checkpoint_id, runtime: { status: 'paused' } });
      expect(await view(paused.checkpoint_id)).toMatchObject({ kind: 'pause', runtime_id: id, has_provider_snapshot: true });

      expectApiError(await client.post('/api/v1/runtimes/exec', { runtime_id: id, command: 'echo x' }), 409, 'runtime_paused');
      expectApiError(await client.post('/api/v1/runtimes/read-file', { runtime_id: id, path: 'kept.txt' }), 409, 'runtime_paused');
      expect((await checkpoint(id)).reused_backend_snapshot, 'checkpoint of a paused runtime').toBe(true);

      const resumed = await client.post('/api/v1/runtimes/resume', { runtime_id: id, metadata: { b: 2 } });
      expectOk(resumed);
      expect(resumed.body.runtime).toMatchObject({ runtime_id: id, status: 'idle' });
      expect(await readText(id, 'kept.txt')).toBe('before pause');
      expect(await detail(id)).toMatchObject({ paused_checkpoint_id: null, metadata: { a: 1, b: 2 } });
      expectApiError(await client.post('/api/v1/runtimes/resume', { runtime_id: id }), 409, 'runtime_not_paused');
    }, testMs);

    test('delete-snapshot is refused with snapshot_in_use while paused, allowed after close with keep_snapshots, then a no-op; checkout of it is 410', async (ctx) => {
      skipUnlessNamed(ctx);
      await open('keeper-paused');
      const id = context.runtimeId('keeper-paused');
      await write(id, 'a.txt', 'a');
      const paused = RuntimePauseResultSchema.parse((await client.post('/api/v1/runtimes/pause', { runtime_id: id })).body);

      const refused = await client.post('/api/v1/runtimes/checkpoint/delete-snapshot', { checkpoint_id: paused.checkpoint_id });
      const details = expectApiError(refused, 409, 'snapshot_in_use');
      expect(details?.runtime_ids).toEqual([id]);

      const closed = await close(id, { keep_snapshots: true });
      expect(closed.deleted_snapshot_ids).toEqual([]);
      expect((await view(paused.checkpoint_id)).has_provider_snapshot).toBe(true);

      const deleted = await client.post('/api/v1/runtimes/checkpoint/delete-snapshot', { checkpoint_id: paused.checkpoint_id });
      expectOk(deleted);
      expect(RuntimeCheckpointSnapshotDeleteResultSchema.parse(deleted.body)).toMatchObject({
        checkpoint_id: paused.checkpoint_id,
        runtime_id: id,
        provider,
        provider_snapshot_id: expect.any(String),
        deleted_provider_snapshot: true,
      });
      expect(deleted.body.cleared_checkpoint_ids).toContain(paused.checkpoint_id);
      expect((await view(paused.checkpoint_id)).has_provider_snapshot).toBe(false);

      const repeated = await client.post('/api/v1/runtimes/checkpoint/delete-snapshot', { checkpoint_id: paused.checkpoint_id });
      expectOk(repeated);
      expect(repeated.body).toMatchObject({ deleted_provider_snapshot: false, cleared_checkpoint_ids: [] });
      expectApiError(await client.post('/api/v1/runtimes/checkout', { checkpoint_id: paused.checkpoint_id }), 410, 'checkpoint_snapshot_deleted');
    }, testMs);

    test('delete-snapshot is refused while a checked-out runtime lives from the snapshot, and clears every checkpoint sharing it', async (ctx) => {
      skipUnlessNamed(ctx);
      await open('keeper-live');
      const id = context.runtimeId('keeper-live');
      await write(id, 'a.txt', 'a');
      const base = await checkpoint(id);
      const reused = await checkpoint(id);
      expect(reused.reused_backend_snapshot).toBe(true);
      const child = await checkout(base.checkpoint_id);
      const refused = await client.post('/api/v1/runtimes/checkpoint/delete-snapshot', { checkpoint_id: base.checkpoint_id });
      const details = expectApiError(refused, 409, 'snapshot_in_use');
      expect(details?.runtime_ids).toContain(child.runtime.runtime_id);

      await close(child.runtime.runtime_id);
      const deleted = await client.post('/api/v1/runtimes/checkpoint/delete-snapshot', { checkpoint_id: base.checkpoint_id });
      expectOk(deleted);
      expect(deleted.body.deleted_provider_snapshot).toBe(true);
      expect([...deleted.body.cleared_checkpoint_ids].sort()).toEqual(expect.arrayContaining([base.checkpoint_id, reused.checkpoint_id]));
      expect((await view(reused.checkpoint_id)).has_provider_snapshot).toBe(false);
      expect((await checkpoint(id)).reused_backend_snapshot, 'the next checkpoint makes a fresh snapshot').toBe(false);
    }, testMs);

    test('close deletes the snapshots nothing keeps and keeps the records; keep_snapshots:true keeps them until a later close without it', async (ctx) => {
      skipUnlessNamed(ctx);
      await open('close-plain');
      const plain = context.runtimeId('close-plain');
      await write(plain, 'a.txt', 'a');
      const plainCheckpoint = await checkpoint(plain);
      const closedPlain = await close(plain);
      expect(closedPlain).toMatchObject({ runtime: { status: 'closed' }, released_backend: true, closed_runtime_ids: [plain] });
      expect(closedPlain.deleted_snapshot_ids).toHaveLength(1);
      expect(await view(plainCheckpoint.checkpoint_id)).toMatchObject({ checkpoint_id: plainCheckpoint.checkpoint_id, has_provider_snapshot: false });

      await open('close-kept');
      const kept = context.runtimeId('close-kept');
      await write(kept, 'a.txt', 'kept');
      const keptCheckpoint = await checkpoint(kept);
      const closedKept = await close(kept, { keep_snapshots: true });
      expect(closedKept.deleted_snapshot_ids).toEqual([]);
      expect((await view(keptCheckpoint.checkpoint_id)).has_provider_snapshot).toBe(true);

      const revived = await checkout(keptCheckpoint.checkpoint_id);
      expect(await readText(revived.runtime.runtime_id, 'a.txt')).toBe('kept');
      await close(revived.runtime.runtime_id);

      const released = await close(kept, { keep_snapshots: false });
      expect(released).toMatchObject({ runtime: { status: 'closed' }, released_backend: false, closed_runtime_ids: [] });
      expect((await view(keptCheckpoint.checkpoint_id)).has_provider_snapshot).toBe(false);
    }, testMs);

    test('close with cascade closes checkout descendants too and lists them; without cascade they stay open', async (ctx) => {
      skipUnlessNamed(ctx);
      await open('tree');
      const root = context.runtimeId('tree');
      await write(root, 'a.txt', 'a');
      const base = await checkpoint(root);
      const child = (await checkout(base.checkpoint_id)).runtime.runtime_id;
      const childCheckpoint = await checkpoint(child);
      const grandchild = (await checkout(childCheckpoint.checkpoint_id)).runtime.runtime_id;

      await open('tree-solo');
      const solo = context.runtimeId('tree-solo');
      await write(solo, 'a.txt', 'a');
      const soloChild = (await checkout((await checkpoint(solo)).checkpoint_id)).runtime.runtime_id;
      await close(solo);
      expect((await detail(soloChild)).runtime.status, 'without cascade').toBe('idle');
      expect(await readText(soloChild, 'a.txt')).toBe('a');

      const closed = await close(root, { cascade: true });
      expect([...closed.closed_runtime_ids].sort()).toEqual([root, child, grandchild].sort());
      expect(closed.closed_runtime_ids[0]).toBe(root);
      for (const runtimeId of [root, child, grandchild]) expect((await detail(runtimeId)).runtime.status, runtimeId).toBe('closed');
      for (const checkpointId of [base.checkpoint_id, childCheckpoint.checkpoint_id]) {
        expect((await view(checkpointId)).has_provider_snapshot, `after closing everything, ${checkpointId} has no snapshot left`).toBe(false);
      }
    }, testMs);
  });
}
