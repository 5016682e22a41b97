import { beforeAll, describe, expect, test } from 'vitest';
import type { ApiKeyScope } from '@runtimectl/core';
import type { ApiResponse } from './api-client';
import { expectApiError, expectOk, type ApiSuiteContext } from './api-suite-context';
import { describeCall, routeCalls, type RouteCall } from './scoped-key-routes';

const MISSING_CHECKPOINT = `rtcp_${'f'.repeat(32)}`;

/** What the area set up: two runtimes (one a key is scoped to, one it is not) and, with snapshots, a checkpoint of each. */
interface Fixture {
  mine: string;
  other: string;
  mineCheckpoint: string | undefined;
  otherCheckpoint: string | undefined;
  /** The event log's last id before the area began: its events come after. */
  eventsBefore: number;
  /** Why the area cannot run here, or undefined. */
  skip: string | undefined;
}

/** A key was let in: whatever the route then answered, it was not a refusal of the key. */
function expectAdmitted(response: ApiResponse, what: string): void {
  expect([401, 403], `${what}: ${JSON.stringify(response.body)}`).not.toContain(response.status);
}

/**
 * API keys, black-box (needs the admin `token`): keys created at run time (`POST /keys`) with a
 * read-only, an exec+checkpoint (no admin) and a one-runtime reach, and a wrong and a revoked key,
 * each sent on every route of the contract. Refusals are exactly as specified — 401, 403
 * `forbidden` naming the missing scope, 404 as for an id that does not exist — and change nothing;
 * no body, list or event shows a key anything beyond its reach. Skipped without a token, or when
 * the daemon keeps no keys (`POST /keys` answers `invalid_request`).
 */
export function scopedKeyApiTests(context: ApiSuiteContext): void {
  const { client, options } = context;
  const testMs = options.timeouts.testMs;
  const fixture: Fixture = { mine: '', other: '', mineCheckpoint: undefined, otherCheckpoint: undefined, eventsBefore: 0, skip: undefined };
  const keyNames: string[] = [];

  const as = (token: string) => ({
    call: (call: RouteCall) => client.request(call.method, call.path, { authorize: false, headers: { authorization: `Bearer ${token}` }, ...(call.body ? { body: call.body } : {}) }),
  });
  const createKey = async (name: string, request: { scopes: ApiKeyScope[]; runtimes?: string[] }): Promise<string> => {
    const fullName = `${context.runtimeId(name)}`.slice(0, 64);
    const created = await client.post('/api/v1/keys', { name: fullName, ...request });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    keyNames.push(fullName);
    return created.body.token as string;
  };
  const adminState = async (runtimeId: string) => {
    const shown = await client.get(`/api/v1/runtimes/${encodeURIComponent(runtimeId)}`);
    expectOk(shown);
    const note = await context.readText(runtimeId, 'note.txt');
    return { status: shown.body.runtime.status, metadata: shown.body.runtime.metadata, note, head: shown.body.runtime.head_checkpoint_id };
  };

  describe('API keys on every route (keys created at run time)', () => {
    beforeAll(async () => {
      if (options.token === undefined) {
        fixture.skip = 'no token given: the deployment is tested as unauthenticated';
        return;
      }
      const probe = await client.post('/api/v1/keys', { name: context.runtimeId('probe'), scopes: ['read'] });
      if (probe.status === 400) {
        fixture.skip = `the daemon keeps no keys: ${probe.body.error}`;
        return;
      }
      expect(probe.status, JSON.stringify(probe.body)).toBe(201);
      expectOk(await client.request('DELETE', `/api/v1/keys/${encodeURIComponent(probe.body.key.name)}`));
      const events = await client.get('/api/v1/events?limit=1');
      expectOk(events);
      fixture.eventsBefore = events.body.last_event_id;
      const provider = options.snapshotProvider ?? options.provider;
      const withProvider = provider === undefined ? {} : { provider };
      for (const name of ['key-mine', 'key-other'] as const) {
        await context.open(name, withProvider);
        await context.writeText(context.runtimeId(name), 'note.txt', `${name}\n`);
      }
      fixture.mine = context.runtimeId('key-mine');
      fixture.other = context.runtimeId('key-other');
      if (options.snapshotProvider !== undefined) {
        for (const [runtimeId, field] of [[fixture.mine, 'mineCheckpoint'], [fixture.other, 'otherCheckpoint']] as const) {
          const checkpoint = await client.post('/api/v1/runtimes/checkpoint', { runtime_id: runtimeId });
          expectOk(checkpoint);
          fixture[field] = checkpoint.body.checkpoint_id;
        }
      }
    }, options.timeouts.hookMs);

    const guarded = (name: string, body: () => Promise<void>) =>
      test(name, async (ctx) => {
        if (fixture.skip) ctx.skip(fixture.skip);
        await body();
      }, testMs);

    guarded('a read-only key reads every read route; every other route is 403 forbidden naming the missing scope and the key, and changes nothing', async () => {
      const token = await createKey('reader', { scopes: ['read'] });
      const before = await adminState(fixture.mine);
      for (const call of routeCalls({ runtimeId: fixture.mine, checkpointId: fixture.mineCheckpoint })) {
        const response = await as(token).call(call);
        if (call.scope === 'read') expectAdmitted(response, describeCall(call));
        else expect(expectApiError(response, 403, 'forbidden'), describeCall(call)).toEqual({ scope: call.scope, key: keyNames.at(-1) });
      }
      expect(await adminState(fixture.mine)).toEqual(before);
    });

    guarded('an exec and checkpoint key without admin is 403 forbidden on every admin route, and changes nothing', async () => {
      const token = await createKey('operator', { scopes: ['exec', 'checkpoint'] });
      const before = await adminState(fixture.mine);
      const admin = routeCalls({ runtimeId: fixture.mine, checkpointId: fixture.mineCheckpoint }).filter((call) => call.scope === 'admin');
      expect(admin.length).toBeGreaterThan(5);
      for (const call of admin) expect(expectApiError(await as(token).call(call), 403, 'forbidden'), describeCall(call)).toEqual({ scope: 'admin', key: keyNames.at(-1) });
      expect(await adminState(fixture.mine)).toEqual(before);
    });

    guarded("a key scoped to one runtime finds every other runtime and checkpoint missing, on every route naming one: the body of an id that does not exist", async () => {
      const token = await createKey('one-runtime', { scopes: ['exec', 'checkpoint'], runtimes: [fixture.mine] });
      const before = await adminState(fixture.other);
      const ghost = context.runtimeId('key-ghost');
      const hidden = routeCalls({ runtimeId: fixture.other, checkpointId: fixture.otherCheckpoint }).filter((call) => call.names !== 'nothing');
      const missing = routeCalls({ runtimeId: ghost, checkpointId: fixture.otherCheckpoint && MISSING_CHECKPOINT }).filter((call) => call.names !== 'nothing');
      for (const [index, call] of hidden.entries()) {
        const refused = await as(token).call(call);
        // The same route for an id nobody has, asked by the admin key: what "does not exist" looks like.
        const absent = await client.request(missing[index]!.method, missing[index]!.path, missing[index]!.body ? { body: missing[index]!.body } : {});
        if (call.scope === 'admin') {
          expectApiError(refused, 403, 'forbidden');
          continue;
        }
        expect(refused.status, describeCall(call)).toBe(404);
        expect(absent.status, describeCall(missing[index]!)).toBe(404);
        // A diff names two ids: which one a daemon reports missing first is its own business.
        if (call.path === '/api/v1/checkpoints/diff') continue;
        const unmask = (value: ApiResponse['body']) => JSON.parse(JSON.stringify(value).replaceAll(ghost, fixture.other).replaceAll(MISSING_CHECKPOINT, fixture.otherCheckpoint ?? ''));
        expect(refused.body, describeCall(call)).toEqual(unmask(absent.body));
      }
      expect(await adminState(fixture.other)).toEqual(before);
    });

    guarded("a key scoped to one runtime works on it and its branches, and no list or event shows it another runtime", async () => {
      const token = await createKey('agent', { scopes: ['exec', 'checkpoint'], runtimes: [fixture.mine] });
      const agent = as(token);
      expectOk(await agent.call({ method: 'POST', path: '/api/v1/runtimes/exec', body: { runtime_id: fixture.mine, command: 'cat note.txt' }, scope: 'exec', names: 'runtime' }));
      const reached = new Set([fixture.mine]);
      if (fixture.mineCheckpoint) {
        const checkout = await agent.call({ method: 'POST', path: '/api/v1/runtimes/checkout', body: { checkpoint_id: fixture.mineCheckpoint }, scope: 'checkpoint', names: 'checkpoint' });
        expectOk(checkout);
        client.openedRuntimeIds.add(checkout.body.runtime.runtime_id);
        reached.add(checkout.body.runtime.runtime_id);
        expectOk(await agent.call({ method: 'POST', path: '/api/v1/runtimes/read-file', body: { runtime_id: checkout.body.runtime.runtime_id, path: 'note.txt' }, scope: 'read', names: 'runtime' }));
      }
      const listed = await agent.call({ method: 'GET', path: '/api/v1/runtimes?limit=500', scope: 'read', names: 'nothing' });
      expectOk(listed);
      expect(new Set(listed.body.runtimes.map((runtime: { runtime_id: string }) => runtime.runtime_id))).toEqual(reached);
      const events = await agent.call({ method: 'GET', path: `/api/v1/events?after=${fixture.eventsBefore}&limit=500`, scope: 'read', names: 'nothing' });
      expectOk(events);
      const seen = new Set((events.body.events as Array<{ runtime_id: string | null }>).map((event) => event.runtime_id));
      expect(seen.has(fixture.other), 'an event of a runtime beyond the key').toBe(false);
      expect(seen.has(fixture.mine)).toBe(true);
    });

    guarded('a wrong key and a revoked key are 401 with WWW-Authenticate: Bearer on every route, from the request after the revocation on', async () => {
      const token = await createKey('revoked', { scopes: ['exec', 'checkpoint'] });
      const calls = routeCalls({ runtimeId: fixture.mine, checkpointId: fixture.mineCheckpoint });
      expectOk(await as(token).call(calls[1]!));
      expectOk(await client.request('DELETE', `/api/v1/keys/${encodeURIComponent(keyNames.at(-1)!)}`));
      for (const presented of [token, `${token}x`, 'rtk_wrong-key-0123456789']) {
        for (const call of calls) {
          const refused = await as(presented).call(call);
          expectApiError(refused, 401, 'unauthorized');
          expect(refused.headers.get('www-authenticate'), describeCall(call)).toMatch(/^Bearer\b/i);
        }
      }
      expectApiError(await client.request('DELETE', `/api/v1/keys/${encodeURIComponent(keyNames.at(-1)!)}`), 404, 'api_key_not_found');
    });

    guarded('GET /keys lists the keys made here by name with their scopes and reach, and never a token', async () => {
      const token = await createKey('listed', { scopes: ['read'], runtimes: [fixture.mine] });
      const listed = await client.get('/api/v1/keys');
      expectOk(listed);
      expect(listed.body.keys.find((key: { name: string }) => key.name === keyNames.at(-1))).toMatchObject({ scopes: ['read'], runtimes: [fixture.mine], source: 'stored' });
      expect(JSON.stringify(listed.body)).not.toContain(token);
    });
  });
}
