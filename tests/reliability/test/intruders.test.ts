import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startE2BRig, type E2BRig } from '../support/e2b-rig';
import { errorShapeProblem } from '../support/error-shape';
import { writeFigures } from '../support/figures';
import { Api, type Reply } from '../support/http';
import { listAllRuntimes } from '../support/invariants';
import { fetchRouteTable, fillPath, HIDDEN_ROUTES, type RouteEntry } from '../support/route-table';
import { checkoutChild, checkpoint, closeAll, hasProviderSnapshot, openRuntime, writeText } from '../support/runtime-steps';

// An authenticated daemon (bearer token) on the E2B emulator, probed by callers without the
// token, with malformed or wrong tokens, and by authenticated callers trying to reach provider
// resources or other runtimes' children by name. Every reply of the file is kept and searched
// for the token and the E2B key at the end, with the daemon's whole log and /metrics.
const TOKEN = `intruders-${randomBytes(24).toString('hex')}`;

let rig: E2BRig;
let anonymous: Api;
let routes: RouteEntry[];
const replies: Reply[] = [];
const figures: Record<string, unknown> = {};
const opened: string[] = [];

/** Records every reply so the secret scan at the end covers all of them. */
async function kept(reply: Promise<Reply>): Promise<Reply> {
  const value = await reply;
  replies.push(value);
  return value;
}

const CREDENTIALS: Record<string, Record<string, string>> = {
  'no header': {},
  'empty header': { authorization: '' },
  'scheme only': { authorization: 'Bearer' },
  'scheme and spaces': { authorization: 'Bearer    ' },
  'basic scheme': { authorization: `Basic ${Buffer.from(`user:${TOKEN}`).toString('base64')}` },
  'other scheme with the token': { authorization: `Token ${TOKEN}` },
  'token without scheme': { authorization: TOKEN },
  'token then garbage': { authorization: `Bearer ${TOKEN} x` },
  'quoted token': { authorization: `Bearer "${TOKEN}"` },
  'comma instead of space': { authorization: `Bearer,${TOKEN}` },
  'last character changed': { authorization: `Bearer ${TOKEN.slice(0, -1)}${TOKEN.endsWith('0') ? '1' : '0'}` },
  'prefix of the token': { authorization: `Bearer ${TOKEN.slice(0, -1)}` },
  'token and one more character': { authorization: `Bearer ${TOKEN}0` },
  'token in upper case': { authorization: `Bearer ${TOKEN.toUpperCase()}` },
  'another token': { authorization: `Bearer ${randomBytes(24).toString('hex')}` },
  'an 8 KiB token': { authorization: `Bearer ${'t'.repeat(8 * 1024)}` },
};

beforeAll(async () => {
  rig = await startE2BRig({ token: TOKEN });
  anonymous = new Api(rig.daemon.url);
  routes = await fetchRouteTable(rig.api);
});

afterAll(async () => {
  writeFigures('intruders', figures);
  // A daemon that crashed during the file would not exit 0 on SIGTERM.
  if (rig) expect(await rig.stop(), 'runtimed exit code').toBe(0);
});

/** A concrete request for each route: real ids, so only the credentials can be the reason for a refusal. */
function probesOf(runtimeId: string, checkpointId: string): Array<{ method: string; path: string }> {
  const values = { runtime_id: encodeURIComponent(runtimeId), checkpoint_id: checkpointId, webhook_id: 'intruder-hook', name: 'intruder-key' };
  return [
    ...routes.map((route) => ({ method: route.method, path: fillPath(route.path, values) })),
    ...HIDDEN_ROUTES,
    { method: 'GET', path: '/api/v1/no-such-route' },
    { method: 'POST', path: '/api/v1/runtimes/no-such-route' },
    { method: 'DELETE', path: '/api/v1/runtimes/open' },
  ];
}

describe('with auth on, every route but health and readiness refuses callers without the right token', () => {
  it('the public routes are exactly health and readiness (a route made public must be added here on purpose)', () => {
    expect(routes.filter((route) => route.public).map((route) => `${route.method} ${route.path}`)).toEqual(['GET /api/v1/health', 'GET /api/v1/ready']);
  });

  it('walks the route table from GET /openapi.json: every route × every bad credential → 401 with WWW-Authenticate', async () => {
    const runtimeId = await openRuntime(rig.api);
    opened.push(runtimeId);
    const checkpointId = await checkpoint(rig.api, runtimeId);
    const publicPaths = new Set(routes.filter((route) => route.public).map((route) => route.path));
    const probes = probesOf(runtimeId, checkpointId).filter((probe) => !publicPaths.has(probe.path));
    let refusals = 0;
    for (const probe of probes) {
      for (const [label, headers] of Object.entries(CREDENTIALS)) {
        const body = probe.method === 'POST' ? { rawBody: JSON.stringify({ runtime_id: runtimeId, checkpoint_id: checkpointId }), headers: { ...headers, 'content-type': 'application/json' } } : { headers };
        const reply = await kept(anonymous.request(probe.method, probe.path, body));
        const where = `${probe.method} ${probe.path} with ${label}`;
        expect(reply.status, where).toBe(401);
        expect(errorShapeProblem(reply), where).toBeUndefined();
        expect((reply.json as { code: string }).code).toBe('unauthorized');
        expect(reply.headers.get('www-authenticate'), where).toMatch(/^Bearer\b/);
        refusals += 1;
      }
    }
    // Headers past Node's limit (16 KiB) cannot even be read: refused as invalid_request, never served.
    for (const probe of probes.slice(0, 5)) {
      const reply = await kept(anonymous.request(probe.method, probe.path, { headers: { authorization: `Bearer ${'t'.repeat(64 * 1024)}` } }));
      expect({ status: reply.status, shape: errorShapeProblem(reply) }, `${probe.method} ${probe.path} with a 64 KiB token`).toEqual({ status: 400, shape: undefined });
      expect(reply.headers.get('x-request-id')).toBeTruthy();
    }
    figures.authWalk = { routesInOpenApi: routes.length, probes: probes.length, credentials: Object.keys(CREDENTIALS).length, refusals };
    // Nothing was done by all those requests: still one runtime, still idle, one checkpoint.
    const runtimes = (await listAllRuntimes(rig.api)).filter((runtime) => runtime.runtime_id === runtimeId);
    expect(runtimes.map((runtime) => runtime.status)).toEqual(['idle']);
    expect(routes.length).toBeGreaterThanOrEqual(20);
  }, 120_000);

  it('the walk is meaningful: with the token, the same routes answer something other than 401', async () => {
    const runtimeId = opened[0]!;
    const checkpointId = (await rig.api.read<{ checkpoints: Array<{ checkpoint_id: string }> }>(`/api/v1/runtimes/${runtimeId}/checkpoints`)).checkpoints[0]!.checkpoint_id;
    for (const route of routes) {
      const path = fillPath(route.path, { runtime_id: runtimeId, checkpoint_id: checkpointId, webhook_id: 'intruder-hook', name: 'intruder-key' });
      // An empty POST body is invalid: 400 shows auth let the request through without doing anything.
      const reply = await kept(route.method === 'POST' ? rig.api.post(path, {}) : rig.api.request(route.method, path));
      expect(reply.status, `${route.method} ${path}`).not.toBe(401);
    }
    for (const scheme of ['bearer', 'BEARER', 'Bearer']) {
      const reply = await kept(anonymous.get('/api/v1/providers', { headers: { authorization: `${scheme} ${TOKEN}` } }));
      expect(reply.status, `scheme ${scheme}`).toBe(200);
    }
  });

  it('health and readiness answer without a token', async () => {
    expect((await kept(anonymous.get('/api/v1/health'))).status).toBe(200);
    expect((await kept(anonymous.get('/api/v1/ready'))).status).toBe(200);
  });
});

describe('callers name checkpoints, never provider resources', () => {
  it('no request field of any route names a provider resource', () => {
    const fields = new Set(routes.flatMap((route) => route.bodyProperties));
    // `keep_snapshots` is a flag about the runtime's own snapshots, not a name of one.
    const providerish = [...fields].filter((field) => /snapshot_(id|name)|sandbox|backend|template|api_?key|url|host/i.test(field));
    expect(providerish).toEqual([]);
  });

  it('delete-snapshot deletes exactly the snapshot its checkpoint records, and refuses any attempt to name one', async () => {
    const a = await openRuntime(rig.api);
    const b = await openRuntime(rig.api);
    opened.push(a, b);
    await writeText(rig.api, a, 'a.txt', 'a');
    await writeText(rig.api, b, 'b.txt', 'b');
    const before = new Set((await rig.admin.state()).snapshots.map((snapshot) => snapshot.snapshotId));
    const checkpointA = await checkpoint(rig.api, a);
    const checkpointB = await checkpoint(rig.api, b);
    const created = (await rig.admin.state()).snapshots.map((snapshot) => snapshot.snapshotId).filter((id) => !before.has(id));
    expect(created).toHaveLength(2);
    for (const body of [
      ...created.map((snapshotId) => ({ checkpoint_id: checkpointA, provider_snapshot_id: snapshotId })),
      ...created.map((snapshotId) => ({ checkpoint_id: snapshotId })),
      { checkpoint_id: checkpointA, provider: 'e2b', snapshot_id: created[1] },
    ]) {
      const reply = await kept(rig.api.post('/api/v1/runtimes/checkpoint/delete-snapshot', body));
      expect(reply.status, JSON.stringify(body)).toBe(400);
    }
    expect((await rig.admin.state()).snapshots.filter((snapshot) => created.includes(snapshot.snapshotId))).toHaveLength(2);
    const deleted = await kept(rig.api.post('/api/v1/runtimes/checkpoint/delete-snapshot', { checkpoint_id: checkpointA }));
    expect(deleted.status).toBe(200);
    const left = (await rig.admin.state()).snapshots.map((snapshot) => snapshot.snapshotId).filter((id) => created.includes(id));
    expect(left, 'only A\'s snapshot is gone').toEqual([(deleted.json as { provider_snapshot_id: string }).provider_snapshot_id === created[0] ? created[1] : created[0]]);
    expect(await hasProviderSnapshot(rig.api, checkpointA)).toBe(false);
    expect(await hasProviderSnapshot(rig.api, checkpointB)).toBe(true);
  });

  it('provider_options.template cannot name one of runtimectl\'s snapshots', async () => {
    const source = await openRuntime(rig.api);
    opened.push(source);
    await writeText(rig.api, source, 'private.txt', 'not yours');
    const before = new Set((await rig.admin.state()).snapshots.map((snapshot) => snapshot.snapshotId));
    await checkpoint(rig.api, source);
    const snapshot = (await rig.admin.state()).snapshots.find((candidate) => !before.has(candidate.snapshotId))!;
    for (const template of [snapshot.snapshotId, ...snapshot.names]) {
      const reply = await kept(rig.api.post('/api/v1/runtimes/open', { conversation_id: 'c', sender_id: 's', provider_options: { template } }));
      expect(reply.status, template).toBe(400);
    }
  });
});

describe('ids shaped like a checkout child cannot be opened by hand', () => {
  it('open refuses `<id>:checkout:<hex>`, made up or belonging to an existing child, and creates nothing', async () => {
    const parent = await openRuntime(rig.api);
    opened.push(parent);
    await writeText(rig.api, parent, 'a.txt', 'parent');
    const child = await checkoutChild(rig.api, await checkpoint(rig.api, parent));
    const countBefore = (await listAllRuntimes(rig.api)).length;
    const hex = randomBytes(16).toString('hex');
    const attempts = [child, `${parent}:checkout:${hex}`, `x:checkout:${hex}`, `x:checkout:${hex.toUpperCase()}`, `x:checkout:${hex.slice(1)}`, `${child}:checkout:${hex}`];
    for (const runtimeId of attempts) {
      for (const party of [{ conversation_id: 'reliability', sender_id: 'suite' }, { conversation_id: 'intruder', sender_id: 'intruder' }]) {
        const reply = await kept(rig.api.post('/api/v1/runtimes/open', { runtime_id: runtimeId, ...party }));
        expect(reply.status, runtimeId).toBe(400);
        expect((reply.json as { code: string }).code).toBe('invalid_request');
      }
    }
    expect((await listAllRuntimes(rig.api)).length).toBe(countBefore);
  });
});

describe('secrets stay secret', () => {
  it('a provider error that echoes the E2B key reaches neither the caller nor the log', async () => {
    for (const status of [401, 500, 503]) {
      await rig.admin.failNext('create', { status, message: `key ${rig.apiKey} was refused` });
      const reply = await kept(rig.api.post('/api/v1/runtimes/open', { conversation_id: 'c', sender_id: 's' }));
      expect(reply.status).toBeGreaterThanOrEqual(400);
    }
    await rig.admin.reset();
  });

  it('neither the token nor the E2B key appears in any reply of this file, in /metrics or in the daemon\'s log', async () => {
    const metrics = await kept(rig.api.get('/metrics'));
    expect(metrics.status).toBe(200);
    await closeAll(rig.api, opened);
    const leaking = replies.filter((reply) => reply.text.includes(TOKEN) || reply.text.includes(rig.apiKey) || [...reply.headers.values()].some((value) => value.includes(TOKEN) || value.includes(rig.apiKey)));
    figures.secretScan = { replies: replies.length, logBytes: rig.daemon.logs.bytes(), logLines: rig.daemon.logs.lines(), metricsBytes: metrics.text.length };
    expect(leaking.map((reply) => `${reply.status} ${reply.text.slice(0, 100)}`)).toEqual([]);
    expect(rig.daemon.logs.foundCount(), 'secrets found in the daemon log').toBe(0);
    expect(rig.daemon.logs.lines()).toBeGreaterThan(100);
  });
});
