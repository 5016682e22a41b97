import { describe, expect, test } from 'vitest';
import { CheckpointDiffResultSchema, CheckpointTreeResultSchema, RuntimeCheckpointResultSchema, type CheckpointDiffResult } from '@runtimectl/core';
import { expectApiError, expectOk, type ApiSuiteContext } from './api-suite-context';

const MISSING_CHECKPOINT = `rtcp_${'0'.repeat(32)}`;

/**
 * `POST /api/v1/checkpoints/diff` on the snapshot provider (or the default one): the changed
 * paths between two checkpoints or a checkpoint and a live runtime, sorted and paginated, with a
 * summary. A provider without manifests must answer 409 `manifest_unavailable` instead.
 */
export function diffApiTests(context: ApiSuiteContext): void {
  const { client, options } = context;
  const testMs = options.timeouts.testMs;
  const provider = options.snapshotProvider;
  const open = (name: string) => context.open(name, provider === undefined ? {} : { provider });
  const checkpoint = async (runtimeId: string) => {
    const response = await client.post('/api/v1/runtimes/checkpoint', { runtime_id: runtimeId });
    expectOk(response);
    return RuntimeCheckpointResultSchema.parse(response.body);
  };
  const diff = (body: Record<string, unknown>) => client.post('/api/v1/checkpoints/diff', body);
  /** Entries under `diff-test/` (a provider's workspace may hold other files). */
  const ours = (result: CheckpointDiffResult) => result.entries.filter(({ path }) => path.startsWith('diff-test/')).map(({ path, change }) => `${change} ${path}`);

  /** Two checkpoints around a modified and an added file, or null when the provider records no manifests. */
  const twoCheckpoints = async (name: string) => {
    await open(name);
    const id = context.runtimeId(name);
    await context.writeText(id, 'diff-test/a.txt', 'one');
    const first = await checkpoint(id);
    await context.writeText(id, 'diff-test/a.txt', 'one, then more');
    await context.writeText(id, 'diff-test/b.txt', 'new');
    const second = await checkpoint(id);
    return { id, first, second };
  };

  describe('checkpoint diff', () => {
    test('between two checkpoints: the changed paths, sorted, with a summary (or manifest_unavailable without manifests)', async () => {
      const { first, second } = await twoCheckpoints('diff-two');
      const response = await diff({ from_checkpoint_id: first.checkpoint_id, to_checkpoint_id: second.checkpoint_id });
      if (first.manifest_root === null) {
        expectApiError(response, 409, 'manifest_unavailable');
        return;
      }
      expectOk(response);
      const result = CheckpointDiffResultSchema.parse(response.body);
      expect(ours(result)).toStrictEqual(['modified diff-test/a.txt', 'added diff-test/b.txt']);
      expect(result.entries.find(({ path }) => path === 'diff-test/a.txt')).toMatchObject({ old_size: 3, new_size: 14 });
      expect(result.summary.added).toBeGreaterThanOrEqual(1);
      expect(result.summary.modified).toBeGreaterThanOrEqual(1);
      expect(result.from_manifest_root).toBe(first.manifest_root);
      expect(result.to_manifest_root).toBe(second.manifest_root);
    }, testMs);

    test("against a runtime's live workspace, without checkpointing it", async () => {
      await open('diff-live');
      const id = context.runtimeId('diff-live');
      await context.writeText(id, 'diff-test/kept.txt', 'k');
      const base = await checkpoint(id);
      await context.writeText(id, 'diff-test/live.txt', 'l');
      const response = await diff({ from_checkpoint_id: base.checkpoint_id, to_runtime_id: id });
      if (base.manifest_root === null) {
        expectApiError(response, 409, 'manifest_unavailable');
        return;
      }
      expectOk(response);
      expect(ours(CheckpointDiffResultSchema.parse(response.body))).toStrictEqual(['added diff-test/live.txt']);
    }, testMs);

    test('pages: limit 1 visits every entry once, in path order', async () => {
      const { first, second } = await twoCheckpoints('diff-pages');
      if (first.manifest_root === null) return;
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const response = await diff({ from_checkpoint_id: first.checkpoint_id, to_checkpoint_id: second.checkpoint_id, limit: 1, ...(cursor ? { cursor } : {}) });
        expectOk(response);
        const page = CheckpointDiffResultSchema.parse(response.body);
        expect(page.entries.length).toBeLessThanOrEqual(1);
        seen.push(...page.entries.map(({ path }) => path));
        cursor = page.next_cursor;
      } while (cursor !== null);
      expect(seen).toStrictEqual([...seen].sort());
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen).toEqual(expect.arrayContaining(['diff-test/a.txt', 'diff-test/b.txt']));
    }, testMs);

    test("a checkpoint's directories, listed from its manifest: entries with kind and size, unchanged after the runtime changed", async () => {
      const { id, first } = await twoCheckpoints('tree-list');
      const tree = (query: string) => client.get(`/api/v1/checkpoints/${encodeURIComponent(first.checkpoint_id)}/tree${query}`);
      if (first.manifest_root === null) {
        expectApiError(await tree(''), 409, 'manifest_unavailable');
        return;
      }
      await context.writeText(id, 'diff-test/c.txt', 'later');
      const root = await tree('');
      expectOk(root);
      expect(CheckpointTreeResultSchema.parse(root.body).entries.find(({ name }) => name === 'diff-test')).toMatchObject({ kind: 'directory' });
      const directory = await tree('?path=diff-test/');
      expectOk(directory);
      const listed = CheckpointTreeResultSchema.parse(directory.body);
      expect(listed.path).toBe('diff-test');
      // The checkpoint's files (b.txt and c.txt came later), not the runtime's.
      expect(listed.entries.map(({ name, kind, size }) => `${kind} ${name} ${size}`)).toStrictEqual(['file a.txt 3']);
      const paged = await tree('?path=diff-test&limit=1');
      expectOk(paged);
      expect(CheckpointTreeResultSchema.parse(paged.body).next_cursor).toBeNull();
      expectApiError(await tree('?path=missing'), 404, 'path_not_found');
      expectApiError(await tree('?path=diff-test/a.txt'), 400, 'invalid_request');
      expectApiError(await tree('?path=diff-test/../..'), 400, 'invalid_request');
      expectApiError(await client.get(`/api/v1/checkpoints/${MISSING_CHECKPOINT}/tree`), 404, 'checkpoint_not_found');
    }, testMs);

    test('refuses a body naming both or neither to_* side, or limit over 500 (400), and an unknown checkpoint (404)', async () => {
      expectApiError(await diff({ from_checkpoint_id: MISSING_CHECKPOINT }), 400, 'invalid_request');
      expectApiError(await diff({ from_checkpoint_id: MISSING_CHECKPOINT, to_checkpoint_id: MISSING_CHECKPOINT, to_runtime_id: 'rt' }), 400, 'invalid_request');
      expectApiError(await diff({ from_checkpoint_id: MISSING_CHECKPOINT, to_checkpoint_id: MISSING_CHECKPOINT, limit: 501 }), 400, 'invalid_request');
      expectApiError(await diff({ from_checkpoint_id: MISSING_CHECKPOINT, to_checkpoint_id: MISSING_CHECKPOINT }), 404, 'checkpoint_not_found');
    }, testMs);
  });
}
