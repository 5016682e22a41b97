import { describe, expect, test, type TestContext } from 'vitest';
import { RuntimeCheckoutChildrenResultSchema, RuntimeCheckpointResultSchema, RuntimeForkResultSchema, type CheckoutChildResult } from '@runtimectl/core';
import { segment, type ApiResponse } from './api-client';
import { expectApiError, expectOk, type ApiSuiteContext } from './api-suite-context';

const CHILD_ID = /:checkout:[0-9a-f]{32}$/;

/** The runtime ids of the children that succeeded, in order. */
const succeeded = (results: CheckoutChildResult[]) => results.flatMap((child) => ('runtime' in child ? [child.runtime.runtime_id] : []));

/** N-way checkout (`checkout` with `count`) and fork, on the named snapshot-capable provider. */
export function checkoutChildrenApiTests(context: ApiSuiteContext): void {
  const { client, options } = context;
  const testMs = options.timeouts.testMs;
  const provider = options.snapshotProvider;

  const skipUnlessNamed = (ctx: TestContext) => {
    if (provider === undefined) ctx.skip('no snapshotProvider named: N-way checkout not run');
  };
  const { writeText: write, readText } = context;
  /** Opens `name` on the snapshot provider with `a.txt` written, and checkpoints it. */
  const checkpointed = async (name: string) => {
    await context.open(name, { provider });
    const id = context.runtimeId(name);
    await write(id, 'a.txt', 'checkpointed');
    const response = await client.post('/api/v1/runtimes/checkpoint', { runtime_id: id });
    expectOk(response);
    return { id, checkpointId: RuntimeCheckpointResultSchema.parse(response.body).checkpoint_id };
  };
  const checkoutChildren = async (checkpointId: string, count: number) => {
    const response = await client.post('/api/v1/runtimes/checkout', { checkpoint_id: checkpointId, count });
    expectOk(response);
    return RuntimeCheckoutChildrenResultSchema.strict().parse(response.body);
  };

  describe('N-way checkout and fork', () => {
    test('checkout with count makes count children, each with the source files, independent of each other and of the source', async (ctx) => {
      skipUnlessNamed(ctx);
      const { id, checkpointId } = await checkpointed('nway');
      const result = await checkoutChildren(checkpointId, 3);
      expect(result).toMatchObject({ checkpoint_id: checkpointId, source_runtime_id: id });
      const children = succeeded(result.results);
      expect(children, JSON.stringify(result.results)).toHaveLength(3);
      expect(new Set(children).size).toBe(3);
      for (const child of children) {
        expect(child).toMatch(CHILD_ID);
        expect(await readText(child, 'a.txt')).toBe('checkpointed');
      }
      for (const [index, child] of children.entries()) await write(child, 'a.txt', `child ${index}`);
      for (const [index, child] of children.entries()) expect(await readText(child, 'a.txt')).toBe(`child ${index}`);
      expect(await readText(id, 'a.txt')).toBe('checkpointed');
      for (const child of children) {
        const detail = await client.get(`/api/v1/runtimes/${segment(child)}`);
        expect(detail.body).toMatchObject({ parent_runtime_id: id, forked_from_checkpoint_id: checkpointId });
      }
    }, testMs);

    test('GET /runtimes lists each runtime with its provider, its lineage (the source runtime and checkpoint) and its home node, as its detail tells them', async (ctx) => {
      skipUnlessNamed(ctx);
      const { id, checkpointId } = await checkpointed('list-lineage');
      const [child] = succeeded((await checkoutChildren(checkpointId, 1)).results);
      const listed = new Map<string, Record<string, unknown>>();
      let cursor: string | null = null;
      do {
        const page: ApiResponse<{ runtimes: Array<Record<string, unknown>>; next_cursor: string | null }> = await client.get(`/api/v1/runtimes?limit=500${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`);
        expectOk(page);
        for (const runtime of page.body.runtimes) listed.set(runtime.runtime_id as string, runtime);
        cursor = page.body.next_cursor;
      } while (cursor !== null);
      expect(listed.get(id)).toMatchObject({ provider, parent_runtime_id: null, forked_from_checkpoint_id: null, home_node_id: expect.toSatisfy((value) => value === null || typeof value === 'string') });
      expect(listed.get(child!)).toMatchObject({ provider, parent_runtime_id: id, forked_from_checkpoint_id: checkpointId });
      const detail = await client.get(`/api/v1/runtimes/${segment(child!)}`);
      expect(listed.get(child!)).toMatchObject({ ...detail.body.runtime, provider: detail.body.provider });
    }, testMs);

    test('checkout count 0 or 101 is refused with 400 invalid_request and creates nothing', async (ctx) => {
      skipUnlessNamed(ctx);
      const { id, checkpointId } = await checkpointed('nway-count');
      const before = await client.listAllRuntimeIds();
      for (const count of [0, 101]) {
        expectApiError(await client.post('/api/v1/runtimes/checkout', { checkpoint_id: checkpointId, count }), 400, 'invalid_request');
        expectApiError(await client.post('/api/v1/runtimes/fork', { runtime_id: id, count }), 400, 'invalid_request');
      }
      expect((await client.listAllRuntimeIds()).sort()).toEqual(before.sort());
    }, testMs);

    test('one child failing (an injected provider create failure) does not fail the others', async (ctx) => {
      skipUnlessNamed(ctx);
      if (options.failNextCheckout === undefined) ctx.skip('no failNextCheckout hook: a black-box client cannot make one create fail');
      const { checkpointId } = await checkpointed('nway-fault');
      await options.failNextCheckout!();
      const result = await checkoutChildren(checkpointId, 3);
      const failed = result.results.flatMap((child) => ('error' in child ? [child.error] : []));
      expect(failed, JSON.stringify(result.results)).toHaveLength(1);
      expect(failed[0]!.code).toMatch(/^provider_/);
      for (const child of succeeded(result.results)) expect(await readText(child, 'a.txt')).toBe('checkpointed');
      expect(succeeded(result.results)).toHaveLength(2);
    }, testMs);

    test('fork checkpoints the runtime once and checks that checkpoint out count ways', async (ctx) => {
      skipUnlessNamed(ctx);
      await context.open('nway-fork', { provider });
      const id = context.runtimeId('nway-fork');
      await write(id, 'a.txt', 'forked');
      const response = await client.post('/api/v1/runtimes/fork', { runtime_id: id, count: 2, name: 'branch point' });
      expectOk(response);
      const result = RuntimeForkResultSchema.strict().parse(response.body);
      expect(result).toMatchObject({ source_runtime_id: id, reused_backend_snapshot: false });
      const checkpoints = await client.get(`/api/v1/runtimes/${segment(id)}/checkpoints`);
      expect(checkpoints.body.checkpoints.map((view: { checkpoint_id: string; name: string }) => [view.checkpoint_id, view.name])).toEqual([
        [result.checkpoint_id, 'branch point'],
      ]);
      const children = succeeded(result.results);
      expect(children, JSON.stringify(result.results)).toHaveLength(2);
      for (const child of children) expect(await readText(child, 'a.txt')).toBe('forked');
    }, testMs);
  });
}
