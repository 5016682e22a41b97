import { describe, expect, it } from 'vitest';
import { RuntimeReadFileRequestSchema } from '@runtimectl/core';
import { createHarness, rejectionOf } from './harness';

const text = (base64: string) => Buffer.from(base64, 'base64').toString();

describe('read-file by checkpoint_id (a snapshot read without restoring it)', () => {
  it("answers the file as the checkpoint holds it, not the runtime's later write, without a checkout", async () => {
    const h = createHarness();
    const id = await h.open();
    await h.write(id, 'notes.md', 'at the checkpoint');
    const { checkpoint_id } = await h.service.checkpoint({ runtime_id: id });
    await h.write(id, 'notes.md', 'written later');
    const checkouts = h.provider.calls.checkout;
    expect(text((await h.service.readFile({ checkpoint_id, path: 'notes.md' })).content_base64)).toBe('at the checkpoint');
    expect(h.provider.calls.checkout).toBe(checkouts);
    expect((await rejectionOf(h.service.readFile({ checkpoint_id, path: 'missing.md' }))).code).toBe('path_not_found');
  });

  it('a checkpoint without a snapshot (provider without snapshots) is unsupported_backend, said without internal names; a deleted snapshot checkpoint_snapshot_deleted', async () => {
    const h = createHarness();
    const local = await h.open(undefined, 'nosnap');
    const plain = await h.service.checkpoint({ runtime_id: local });
    const unsupported = await rejectionOf(h.service.readFile({ checkpoint_id: plain.checkpoint_id, path: 'a' }));
    expect(unsupported).toMatchObject({ code: 'unsupported_backend', details: { provider: 'nosnap', capability: 'read_snapshot_file' } });
    // Said in a caller's terms: no internal capability name in the message.
    expect(unsupported.message).toBe(`checkpoint ${plain.checkpoint_id} has no snapshot to read files from: provider nosnap takes none`);
    const id = await h.open();
    await h.write(id, 'a.txt', 'a');
    const { checkpoint_id } = await h.service.checkpoint({ runtime_id: id });
    await h.write(id, 'a.txt', 'b');
    await h.service.checkpoint({ runtime_id: id });
    await h.service.deleteCheckpointSnapshot({ checkpoint_id });
    expect((await rejectionOf(h.service.readFile({ checkpoint_id, path: 'a.txt' }))).code).toBe('checkpoint_snapshot_deleted');
  });

  it('the request names exactly one of runtime_id and checkpoint_id', () => {
    const checkpoint_id = `rtcp_${'0'.repeat(32)}`;
    expect(RuntimeReadFileRequestSchema.safeParse({ path: 'a' }).success).toBe(false);
    expect(RuntimeReadFileRequestSchema.safeParse({ runtime_id: 'rt', checkpoint_id, path: 'a' }).success).toBe(false);
    expect(RuntimeReadFileRequestSchema.safeParse({ checkpoint_id, path: 'a' }).success).toBe(true);
  });
});
