import { CheckpointPinResultSchema, RetentionPreviewResultSchema } from '@runtimectl/core';
import { describe, expect, it } from 'vitest';
import { runCli, runCliJson } from './cli-process';
import { expectShape } from './expect-shape';
import { useSharedRuntimed } from './shared-runtimed';

const shared = useSharedRuntimed();

/** Opens `runtimeId` keeping its newest snapshot only, with two checkpoints. */
async function twoCheckpoints(runtimeId: string): Promise<string[]> {
  await shared.client.open({ runtime_id: runtimeId, conversation_id: 'c', sender_id: 's', retention: { keep_last: 1 } });
  const ids: string[] = [];
  for (const text of ['one', 'two']) {
    await shared.client.writeFile({ runtime_id: runtimeId, path: 'f.txt', content_base64: Buffer.from(text).toString('base64') });
    ids.push((await shared.client.checkpoint({ runtime_id: runtimeId })).checkpoint_id);
  }
  return ids;
}

describe('retention and pin', () => {
  it('retention preview --runtime prints each checkpoint with keep/delete and why, and a summary; --json is the whole preview', async () => {
    const [older, newer] = await twoCheckpoints('ret-preview');
    const table = await runCli(['retention', 'preview', '--runtime', 'ret-preview'], shared.at);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(new RegExp(`^CHECKPOINT\\s+RUNTIME\\s+SNAPSHOT\\s+WHY\\n${older}\\s+ret-preview\\s+delete\\s+outside_keep_last\\n${newer}\\s+ret-preview\\s+keep\\s+clean, keep_last\\n1 snapshot would be deleted \\(1 checkpoint cleared\\)\\n$`));
    const json = expectShape(RetentionPreviewResultSchema, await runCliJson(['retention', 'preview', '--runtime', 'ret-preview'], shared.at));
    expect(json.checkpoints.map((verdict) => verdict.delete)).toEqual([true, false]);
  });

  it('pin keeps a checkpoint from the policy (the preview says pinned); pin --unpin gives it back', async () => {
    const [older] = await twoCheckpoints('ret-pin');
    const pinned = await runCli(['pin', older!], shared.at);
    expect(pinned.stdout).toBe(`${older} pinned\n`);
    const preview = expectShape(RetentionPreviewResultSchema, await runCliJson(['retention', 'preview', '--runtime', 'ret-pin'], shared.at));
    expect(preview.checkpoints[0]).toMatchObject({ checkpoint_id: older, delete: false, reasons: ['pinned'] });
    const unpinned = expectShape(CheckpointPinResultSchema, await runCliJson(['pin', older!, '--unpin'], shared.at));
    expect(unpinned.checkpoint.pinned).toBe(false);
  });
});
