import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorShapeProblem } from '../support/error-shape';
import { writeFigures } from '../support/figures';
import { fuzzCategories, type FuzzRequest } from '../support/fuzz-requests';
import { Api, type Reply } from '../support/http';
import { startRuntimed, type RuntimedProcess } from '../support/processes';
import { fetchRouteTable, type RouteEntry } from '../support/route-table';
import { sendTruncatedOnTheWire } from '../support/raw-http';
import { checkpoint, openRuntime, writeText } from '../support/runtime-steps';

// Property-based fuzzing of every route of the daemon's own route table (GET /openapi.json):
// each malformed request must get a 4xx with the {error, code, details?} body, the daemon must
// stay up, and its memory must stay bounded. One daemon (memory provider) for the file.
const RUNS: Record<string, number> = {
  'random JSON': 300,
  'missing field': 200,
  'extra field': 200,
  'wrong type': 250,
  'huge string': 40,
  'deep nesting': 60,
  'invalid base64': 150,
  'unicode and control characters in ids (body)': 200,
  'unicode and control characters in ids (URL)': 200,
  'unicode and control characters in paths': 200,
  'wrong content type': 150,
  'truncated body': 200,
  'bad query': 150,
};
/** Growth of the daemon's resident memory over the whole fuzz run that still counts as bounded. */
const RSS_GROWTH_LIMIT_BYTES = 256 * 1024 * 1024;

let daemon: RuntimedProcess;
let api: Api;
let routes: RouteEntry[];
let categories: ReturnType<typeof fuzzCategories>;
let rssBeforeBytes = 0;
const figures: Record<string, unknown> = {};
const counts: Record<string, { runs: number; statuses: Record<string, number>; codes: Record<string, number> }> = {};

beforeAll(async () => {
  daemon = await startRuntimed({ args: ['--provider', 'memory'] });
  api = new Api(daemon.url);
  routes = await fetchRouteTable(api);
  const runtimeId = await openRuntime(api);
  await writeText(api, runtimeId, 'a.txt', 'fuzz target');
  categories = fuzzCategories(routes, { runtimeId, checkpointId: await checkpoint(api, runtimeId) });
  rssBeforeBytes = daemon.rssBytes();
});

afterAll(async () => {
  writeFigures('route-fuzzing', { ...figures, routes: routes?.map((route) => `${route.method} ${route.path}`), categories: counts });
  // A daemon that crashed during the file would not exit 0 on SIGTERM.
  if (daemon) expect(await daemon.stop(), 'runtimed exit code').toBe(0);
});

async function send(request: FuzzRequest): Promise<Reply> {
  const headers: Record<string, string> = {};
  if (request.contentType && request.contentType !== 'none') headers['content-type'] = request.contentType;
  // A Uint8Array body carries no content type of its own (a string would default to text/plain).
  const rawBody = request.body === undefined ? undefined : new TextEncoder().encode(request.body);
  return api.request(request.method, request.path, { ...(rawBody ? { rawBody } : {}), headers, timeoutMs: 30_000 });
}

function tally(category: string, reply: Reply): void {
  const entry = (counts[category] ??= { runs: 0, statuses: {}, codes: {} });
  entry.runs += 1;
  entry.statuses[reply.status] = (entry.statuses[reply.status] ?? 0) + 1;
  const code = (reply.json as { code?: string } | undefined)?.code ?? 'none';
  entry.codes[code] = (entry.codes[code] ?? 0) + 1;
}

describe('every route refuses malformed input with a 4xx and the error body', () => {
  it('the route table is the daemon\'s own, and every route is fuzzed', () => {
    expect(routes.length).toBeGreaterThanOrEqual(20);
    const fuzzedPosts = routes.filter((route) => route.method === 'POST').map((route) => route.path);
    expect(fuzzedPosts.length).toBeGreaterThan(10);
  });

  for (const [category, runs] of Object.entries(RUNS)) {
    it(`${category} (${runs} runs)`, async () => {
      const arbitrary = categories[category];
      expect(arbitrary, `a generator for ${category}`).toBeDefined();
      await fc.assert(
        fc.asyncProperty(arbitrary!, async (request) => {
          const reply = await send(request);
          tally(category, reply);
          const where = `${request.method} ${request.path.slice(0, 120)} → ${reply.status} ${reply.text.slice(0, 200)}`;
          expect(reply.status >= 400 && reply.status < 500, where).toBe(true);
          expect(errorShapeProblem(reply), where).toBeUndefined();
        }),
        { numRuns: runs, endOnFailure: true },
      );
      expect(daemon.alive(), 'the daemon is still running').toBe(true);
      expect((await api.get('/api/v1/health')).status).toBe(200);
    }, 120_000);
  }

  it('bodies cut short on the wire (fewer bytes than Content-Length, then the connection ends) leave the daemon serving', async () => {
    const outcomes = await sendTruncatedOnTheWire(daemon.url, 40);
    figures.truncatedOnTheWire = outcomes;
    expect(daemon.alive()).toBe(true);
    expect((await api.get('/api/v1/health')).status).toBe(200);
    // Whatever answer came back before the connection closed is a 4xx, never a 5xx.
    expect(Object.keys(outcomes.statuses).filter((status) => Number(status) >= 500)).toEqual([]);
  });

  it('memory stays bounded over the whole run', () => {
    const rssAfterBytes = daemon.rssBytes();
    figures.rss = { beforeBytes: rssBeforeBytes, afterBytes: rssAfterBytes, growthBytes: rssAfterBytes - rssBeforeBytes, limitBytes: RSS_GROWTH_LIMIT_BYTES };
    figures.totalRequests = Object.values(counts).reduce((sum, entry) => sum + entry.runs, 0);
    expect(rssAfterBytes - rssBeforeBytes).toBeLessThan(RSS_GROWTH_LIMIT_BYTES);
  });
});
