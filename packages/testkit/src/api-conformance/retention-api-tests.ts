import { describe, expect, test, type TestContext } from 'vitest';
import { CheckpointPinResultSchema, RetentionPreviewResultSchema, RuntimeCheckpointResultSchema } from '@runtimectl/core';
import { segment } from './api-client';
import { expectApiError, expectOk, type ApiSuiteContext } from './api-suite-context';

/** Pins and the retention preview, on the named snapshot-capable provider (a policy needs snapshots to act on). */
export function retentionApiTests(context: ApiSuiteContext): void {
  const { client, options } = context;
  const testMs = options.timeouts.testMs;
  const provider = options.snapshotProvider;
  const skipUnlessNamed = (ctx: TestContext) => {
    if (provider === undefined) ctx.skip('no snapshotProvider named: retention not run');
  };

  /** Opens `name` with `retention` and takes `count` checkpoints, each after a write. */
  const checkpointed = async (name: string, count: number, retention: Record<string, unknown>) => {
    await context.open(name, { provider, retention });
    const id = context.runtimeId(name);
    const ids: string[] = [];
    for (let index = 0; index < count; index += 1) {
      await context.writeText(id, 'f.txt', `v${index}`);
      const response = await client.post('/api/v1/runtimes/checkpoint', { runtime_id: id });
      expectOk(response);
      ids.push(RuntimeCheckpointResultSchema.parse(response.body).checkpoint_id);
    }
    return { id, ids };
  };

  describe('snapshot retention', () => {
    test('a runtime opened with retention shows it; the preview says which snapshot its policy would delete and why, deleting nothing', async (ctx) => {
      skipUnlessNamed(ctx);
      const { id, ids } = await checkpointed('retention-preview', 2, { keep_last: 1 });
      expect((await client.get(`/api/v1/runtimes/${segment(id)}`)).body.retention).toEqual({ keep_last: 1 });
      const preview = await client.get(`/api/v1/retention/preview?runtime_id=${encodeURIComponent(id)}`);
      expectOk(preview);
      const verdicts = RetentionPreviewResultSchema.parse(preview.body).checkpoints;
      expect(verdicts.map((v) => [v.checkpoint_id, v.delete, v.reasons[0]])).toEqual([
        [ids[0], true, 'outside_keep_last'],
        [ids[1], false, 'clean'],
      ]);
      const older = await client.get(`/api/v1/checkpoints/${ids[0]}`);
      expect(older.body.has_provider_snapshot).toBe(true);
      expectOk(await client.post('/api/v1/runtimes/close', { runtime_id: id }));
    }, testMs);

    test('a pinned checkpoint is kept by the preview as pinned; unpinning gives it back to the policy', async (ctx) => {
      skipUnlessNamed(ctx);
      const { id, ids } = await checkpointed('retention-pin', 2, { keep_last: 1 });
      const pinned = await client.post('/api/v1/runtimes/checkpoint/pin', { checkpoint_id: ids[0] });
      expectOk(pinned);
      expect(CheckpointPinResultSchema.parse(pinned.body).checkpoint).toMatchObject({ checkpoint_id: ids[0], pinned: true });
      const kept = await client.get(`/api/v1/retention/preview?runtime_id=${encodeURIComponent(id)}`);
      expect(kept.body.checkpoints[0]).toMatchObject({ checkpoint_id: ids[0], delete: false, reasons: ['pinned'] });
      expectOk(await client.post('/api/v1/runtimes/checkpoint/pin', { checkpoint_id: ids[0], pinned: false }));
      const given = await client.get(`/api/v1/retention/preview?runtime_id=${encodeURIComponent(id)}`);
      expect(given.body.checkpoints[0]).toMatchObject({ checkpoint_id: ids[0], delete: true });
      expectOk(await client.post('/api/v1/runtimes/close', { runtime_id: id }));
    }, testMs);

    test('pin of an unknown checkpoint answers 404 checkpoint_not_found; retention keep_last 0 is refused with 400 invalid_request', async () => {
      expectApiError(await client.post('/api/v1/runtimes/checkpoint/pin', { checkpoint_id: `rtcp_${'0'.repeat(32)}` }), 404, 'checkpoint_not_found');
      const refused = await client.post('/api/v1/runtimes/open', { conversation_id: 'c', sender_id: 's', retention: { keep_last: 0 } });
      expectApiError(refused, 400, 'invalid_request');
    }, testMs);
  });
}
