import { describe, expect, test } from 'vitest';
import {
  RuntimeCloseResultSchema,
  RuntimeDetailSchema,
  RuntimeListResultSchema,
  RuntimeOpenResultSchema,
  RuntimeUpdateResultSchema,
} from '@runtimectl/core';
import { segment } from './api-client';
import { expectApiError, expectOk, type ApiSuiteContext } from './api-suite-context';

/** open / get / update / close and their errors, on the route-test provider. */
export function runtimeApiTests(context: ApiSuiteContext): void {
  const { client, options } = context;
  const testMs = options.timeouts.testMs;

  describe('runtime lifecycle routes', () => {
    test('open creates a runtime; the same id with the same parties re-attaches; other parties are 409 runtime_exists', async () => {
      const opened = await context.open('lifecycle-open');
      const result = RuntimeOpenResultSchema.parse(opened.body);
      expect(result).toMatchObject({
        created: true,
        runtime: { runtime_id: context.runtimeId('lifecycle-open'), conversation_id: 'conformance', sender_id: 'suite', status: 'idle' },
      });
      expect(result.runtime.updated_at_ms).toBeGreaterThanOrEqual(result.runtime.created_at_ms);
      const again = await context.open('lifecycle-open');
      expect(again.body.created).toBe(false);
      const taken = await client.post('/api/v1/runtimes/open', {
        runtime_id: context.runtimeId('lifecycle-open'),
        conversation_id: 'someone-else',
        sender_id: 'suite',
      });
      expectApiError(taken, 409, 'runtime_exists');
    }, testMs);

    test('a lone surrogate (ill-formed UTF-16) in any string of a body is 400 invalid_request naming the field; nothing is stored', async () => {
      const loneSurrogate = await client.post('/api/v1/runtimes/open', {
        runtime_id: context.runtimeId('lone-surrogate'),
        conversation_id: 'c\ud800',
        sender_id: 'suite',
      });
      expectApiError(loneSurrogate, 400, 'invalid_request');
      expect(String(loneSurrogate.body.error)).toMatch(/conversation_id/);
      const inMetadata = await client.post('/api/v1/runtimes/open', {
        runtime_id: context.runtimeId('lone-surrogate'),
        conversation_id: 'conformance',
        sender_id: 'suite',
        metadata: { note: ['ok', 'x\udc00y'] },
      });
      expectApiError(inMetadata, 400, 'invalid_request');
      expect(String(inMetadata.body.error)).toMatch(/metadata\.note\.1/);
      expectApiError(await client.get(`/api/v1/runtimes/${segment(context.runtimeId('lone-surrogate'))}`), 404, 'runtime_not_found');
      const wellFormed = await context.open('lone-surrogate', { conversation_id: 'c\ud83d\ude00' });
      expect(wellFormed.body.runtime.conversation_id).toBe('c\u{1f600}');
      expect((await context.open('lone-surrogate', { conversation_id: 'c\ud83d\ude00' })).body.created).toBe(false);
    }, testMs);

    test('re-open with conflicting metadata or session_state is 409 runtime_exists naming the fields; the same values re-attach', async () => {
      await context.open('lifecycle-reopen', { metadata: { team: 'a', tier: 1 }, session_state: { turn: 1 } });
      const same = await context.open('lifecycle-reopen', { metadata: { tier: 1, team: 'a' }, session_state: { turn: 1 } });
      expect(same.body.created).toBe(false);
      const conflicting = await client.post('/api/v1/runtimes/open', {
        runtime_id: context.runtimeId('lifecycle-reopen'),
        conversation_id: 'conformance',
        sender_id: 'suite',
        metadata: { team: 'b', tier: 1 },
        session_state: { turn: 2 },
      });
      expectApiError(conflicting, 409, 'runtime_exists');
      expect(conflicting.body.details).toMatchObject({ fields: ['metadata', 'session_state'] });
      const detail = await client.get(`/api/v1/runtimes/${segment(context.runtimeId('lifecycle-reopen'))}`);
      expect(detail.body).toMatchObject({ metadata: { team: 'a', tier: 1 }, session_state: { turn: 1 } });
    }, testMs);

    test('open without runtime_id generates rt_<32 hex>; a caller cannot choose a checkout-shaped id', async () => {
      const opened = await client.post('/api/v1/runtimes/open', {
        conversation_id: 'conformance',
        sender_id: 'suite',
        ...(options.provider !== undefined ? { provider: options.provider } : {}),
      });
      expectOk(opened);
      expect(opened.body.runtime.runtime_id).toMatch(/^rt_[0-9a-f]{32}$/);
      const shaped = await client.post('/api/v1/runtimes/open', {
        runtime_id: `${context.runtimeId('x')}:checkout:${'a'.repeat(32)}`,
        conversation_id: 'c',
        sender_id: 's',
      });
      expectApiError(shaped, 400, 'invalid_request');
    }, testMs);

    test('GET /api/v1/runtimes/{id} returns the detail: lineage, metadata ({} by default), session_state, last_error', async () => {
      await context.open('lifecycle-detail', { session_state: { turn: 3, notes: ['a'] } });
      const detail = await client.get(`/api/v1/runtimes/${segment(context.runtimeId('lifecycle-detail'))}`);
      expectOk(detail);
      expect(RuntimeDetailSchema.parse(detail.body)).toMatchObject({
        runtime: { runtime_id: context.runtimeId('lifecycle-detail'), status: 'idle' },
        head_checkpoint_id: null,
        paused_checkpoint_id: null,
        parent_runtime_id: null,
        forked_from_checkpoint_id: null,
        metadata: {},
        session_state: { turn: 3, notes: ['a'] },
        last_error: null,
      });
      if (options.provider !== undefined) expect(detail.body.provider).toBe(options.provider);
      expectApiError(await client.get(`/api/v1/runtimes/${segment(context.runtimeId('never-opened'))}`), 404, 'runtime_not_found');
    }, testMs);

    test('update replaces metadata and session_state wholesale', async () => {
      await context.open('lifecycle-update', { metadata: { a: 1, b: 2 }, session_state: { v: 1 } });
      const updated = await client.post('/api/v1/runtimes/update', {
        runtime_id: context.runtimeId('lifecycle-update'),
        metadata: { c: 3 },
        session_state: { v: 2 },
      });
      expectOk(updated);
      expect(RuntimeUpdateResultSchema.parse(updated.body).runtime.runtime_id).toBe(context.runtimeId('lifecycle-update'));
      const detail = await client.get(`/api/v1/runtimes/${segment(context.runtimeId('lifecycle-update'))}`);
      expect(detail.body).toMatchObject({ metadata: { c: 3 }, session_state: { v: 2 } });
      expectApiError(
        await client.post('/api/v1/runtimes/update', { runtime_id: context.runtimeId('never-opened'), metadata: {} }),
        404,
        'runtime_not_found',
      );
    }, testMs);

    test('close marks the runtime closed; closing again is a 200 no-op; a closed runtime refuses work with runtime_closed', async () => {
      await context.open('lifecycle-close');
      const id = context.runtimeId('lifecycle-close');
      const closed = await client.post('/api/v1/runtimes/close', { runtime_id: id });
      expectOk(closed);
      expect(RuntimeCloseResultSchema.parse(closed.body)).toMatchObject({
        runtime: { runtime_id: id, status: 'closed' },
        released_backend: true,
        closed_runtime_ids: [id],
      });
      const again = await client.post('/api/v1/runtimes/close', { runtime_id: id });
      expectOk(again);
      expect(again.body).toMatchObject({ runtime: { status: 'closed' }, released_backend: false, closed_runtime_ids: [] });
      expectApiError(await client.post('/api/v1/runtimes/exec', { runtime_id: id, command: 'echo hi' }), 409, 'runtime_closed');
      expectApiError(await client.post('/api/v1/runtimes/update', { runtime_id: id, metadata: {} }), 409, 'runtime_closed');
      expectApiError(await client.post('/api/v1/runtimes/close', { runtime_id: context.runtimeId('never-opened') }), 404, 'runtime_not_found');
    }, testMs);
  });

  describe('pagination', () => {
    test('GET /api/v1/runtimes pages with limit and cursor, ordered by runtime_id, each runtime once', async () => {
      const names = ['page-e', 'page-a', 'page-d', 'page-b', 'page-c'];
      for (const name of names) await context.open(name);
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const query: string = cursor === null ? 'limit=2' : `limit=2&cursor=${encodeURIComponent(cursor)}`;
        const page = await client.get(`/api/v1/runtimes?${query}`);
        expectOk(page);
        const parsed = RuntimeListResultSchema.parse(page.body);
        expect(parsed.runtimes.length).toBeLessThanOrEqual(2);
        seen.push(...parsed.runtimes.map((runtime) => runtime.runtime_id));
        cursor = parsed.next_cursor;
        pages += 1;
        expect(pages, 'pagination terminates').toBeLessThan(10_000);
      } while (cursor !== null);
      expect(new Set(seen).size, 'no runtime twice').toBe(seen.length);
      expect(seen, 'ordered by runtime_id').toEqual([...seen].sort());
      for (const name of names) expect(seen).toContain(context.runtimeId(name));
      expectApiError(await client.get('/api/v1/runtimes?limit=501'), 400, 'invalid_request');
      expectApiError(await client.get('/api/v1/runtimes?limit=0'), 400, 'invalid_request');
    }, testMs);

    test('GET /api/v1/runtimes?status= filters by status', async () => {
      await context.open('status-open');
      await context.open('status-closed');
      expectOk(await client.post('/api/v1/runtimes/close', { runtime_id: context.runtimeId('status-closed') }));
      const closed = await client.listAllRuntimeIds('status=closed');
      const idle = await client.listAllRuntimeIds('status=idle');
      expect(closed).toContain(context.runtimeId('status-closed'));
      expect(closed).not.toContain(context.runtimeId('status-open'));
      expect(idle).toContain(context.runtimeId('status-open'));
      expectApiError(await client.get('/api/v1/runtimes?status=sleeping'), 400, 'invalid_request');
    }, testMs);

    test('GET /api/v1/runtimes/{id}/checkpoints pages newest first with time-ordered ids', async () => {
      await context.open('checkpoint-pages');
      const id = context.runtimeId('checkpoint-pages');
      const created: string[] = [];
      for (let index = 0; index < 5; index += 1) {
        const checkpoint = await client.post('/api/v1/runtimes/checkpoint', { runtime_id: id, name: `c${index}` });
        expectOk(checkpoint);
        expect(checkpoint.body.parent_checkpoint_id).toBe(created.at(-1) ?? null);
        created.push(checkpoint.body.checkpoint_id);
      }
      expect(created, 'checkpoint ids sort in creation order').toEqual([...created].sort());
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const query: string = cursor === null ? 'limit=2' : `limit=2&cursor=${encodeURIComponent(cursor)}`;
        const page = await client.get(`/api/v1/runtimes/${segment(id)}/checkpoints?${query}`);
        expectOk(page);
        expect(page.body.checkpoints.length).toBeLessThanOrEqual(2);
        seen.push(...page.body.checkpoints.map((checkpoint: { checkpoint_id: string }) => checkpoint.checkpoint_id));
        cursor = page.body.next_cursor;
      } while (cursor !== null);
      expect(seen).toEqual([...created].reverse());
      const view = await client.get(`/api/v1/checkpoints/${created[0]}`);
      expectOk(view);
      expect(view.body).toMatchObject({ checkpoint_id: created[0], runtime_id: id, kind: 'checkpoint', name: 'c0', parent_checkpoint_id: null });
      expectApiError(await client.get(`/api/v1/runtimes/${segment(context.runtimeId('never-opened'))}/checkpoints`), 404, 'runtime_not_found');
      expectApiError(await client.get(`/api/v1/checkpoints/rtcp_${'0'.repeat(32)}`), 404, 'checkpoint_not_found');
    }, testMs);
  });
}
