import fc from 'fast-check';
import {
  badCheckpointId,
  badQuery,
  badRuntimeId,
  deepNesting,
  extraFieldName,
  hugeString,
  invalidBase64,
  strangePath,
  wrongContentType,
  wrongType,
  type RawValue,
} from './bad-input';
import { fillPath, type RouteEntry } from './route-table';

/** One request as sent: method, path (query included), body text and content type ('none': no header). */
export interface FuzzRequest {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  contentType?: string;
}

/** Runtime and checkpoint that exist, so malformed requests can name real things. */
export interface FuzzFixtures {
  runtimeId: string;
  checkpointId: string;
}

/** A minimal valid body for every POST route: only required fields, so dropping any makes it invalid. */
export function validBodies(fixtures: FuzzFixtures): Record<string, Record<string, unknown>> {
  const runtime = { runtime_id: fixtures.runtimeId };
  return {
    '/api/v1/runtimes/open': { conversation_id: 'fuzz', sender_id: 'fuzz' },
    '/api/v1/runtimes/update': runtime,
    '/api/v1/runtimes/close': runtime,
    '/api/v1/runtimes/exec': { ...runtime, command: 'true' },
    '/api/v1/runtimes/read-file': { ...runtime, path: 'a.txt' },
    '/api/v1/runtimes/write-file': { ...runtime, path: 'a.txt', content_base64: 'YQ==' },
    '/api/v1/runtimes/stat': { ...runtime, path: 'a.txt' },
    '/api/v1/runtimes/mkdir': { ...runtime, path: 'made' },
    '/api/v1/runtimes/search': { ...runtime, glob: '*' },
    '/api/v1/runtimes/export': { ...runtime, path: 'a.txt' },
    '/api/v1/runtimes/checkpoint': runtime,
    '/api/v1/runtimes/checkpoint/delete-snapshot': { checkpoint_id: fixtures.checkpointId },
    '/api/v1/runtimes/checkpoint/pin': { checkpoint_id: fixtures.checkpointId },
    '/api/v1/runtimes/checkout': { checkpoint_id: fixtures.checkpointId },
    '/api/v1/runtimes/fork': runtime,
    '/api/v1/runtimes/pause': runtime,
    '/api/v1/runtimes/resume': runtime,
    '/api/v1/checkpoints/diff': { from_checkpoint_id: fixtures.checkpointId, to_checkpoint_id: fixtures.checkpointId },
    '/api/v1/keys': { name: 'fuzz-key', scopes: ['read'] },
  };
}

const json = (value: unknown) => JSON.stringify(value);
/** Puts raw JSON text where the marker string is (for nesting too deep to build as objects). */
const splice = (body: Record<string, unknown>, key: string, raw: RawValue) => json({ ...body, [key]: '\u0001MARK\u0001' }).replace(json('\u0001MARK\u0001'), raw.raw);

/**
 * For each category of bad input, an arbitrary of requests. Every one is malformed by
 * construction; `routes` is the daemon's own route table, so each route is covered.
 */
export function fuzzCategories(routes: RouteEntry[], fixtures: FuzzFixtures): Record<string, fc.Arbitrary<FuzzRequest>> {
  const valid = validBodies(fixtures);
  const posts = routes.filter((route) => route.method === 'POST');
  const gets = routes.filter((route) => route.method === 'GET');
  const missing = posts.filter((route) => !valid[route.path]).map((route) => route.path);
  if (missing.length > 0) throw new Error(`no valid body for ${missing.join(', ')}: add one to validBodies`);
  const postRoute = fc.constantFrom(...posts);
  /** Fields whose only bound is the body limit. */
  const BOUNDED_BY_THE_BODY_LIMIT = ['content_base64'];
  const withField = (pick: (route: RouteEntry) => string[]) =>
    postRoute.chain((route) => fc.tuple(fc.constant(route), fc.constantFrom(...pick(route))));
  const post = (route: RouteEntry, body: string, contentType = 'application/json'): FuzzRequest => ({ method: 'POST', path: route.path, body, contentType });
  const idRoutes = posts.filter((route) => 'runtime_id' in valid[route.path]! || 'checkpoint_id' in valid[route.path]!);
  const paramGets = gets.filter((route) => route.params.length > 0);
  const queryGets = gets.filter((route) => route.queryParams.length > 0);
  const jsonFields = (route: RouteEntry) => ['metadata', 'session_state'].filter((key) => route.bodyProperties.includes(key));

  return {
    'random JSON': fc.tuple(postRoute, fc.jsonValue()).map(([route, body]) => post(route, json(body))),
    'missing field': withField((route) => Object.keys(valid[route.path]!)).map(([route, key]) => {
      const body = { ...valid[route.path]! };
      delete body[key];
      return post(route, json(body));
    }),
    'extra field': fc
      .tuple(postRoute, extraFieldName, fc.jsonValue({ maxDepth: 2 }))
      .filter(([route, name]) => !route.bodyProperties.includes(name))
      .map(([route, name, value]) => post(route, json({ ...valid[route.path]!, [name]: value }))),
    'wrong type': fc.tuple(withField((route) => Object.keys(valid[route.path]!)), wrongType).map(([[route, key], value]) => post(route, json({ ...valid[route.path]!, [key]: value }))),
    // A file's content has no limit of its own below the body limit: 8 MiB of valid base64 (`x`
    // repeated a multiple of 4 times) is a legal write (final CI of c927585: 200). Invalid and
    // oversized content have their own cases ('invalid base64'; oversized-bodies.test.ts).
    'huge string': fc.tuple(withField((route) => Object.keys(valid[route.path]!).filter((key) => !BOUNDED_BY_THE_BODY_LIMIT.includes(key))), hugeString).map(([[route, key], value]) => post(route, json({ ...valid[route.path]!, [key]: value }))),
    'deep nesting': fc
      .tuple(withField((route) => [...Object.keys(valid[route.path]!), ...jsonFields(route)]), deepNesting)
      .map(([[route, key], raw]) => post(route, splice(valid[route.path]!, key, raw))),
    'invalid base64': invalidBase64.map((value) => ({ method: 'POST', path: '/api/v1/runtimes/write-file', body: json({ ...valid['/api/v1/runtimes/write-file']!, content_base64: value }), contentType: 'application/json' }) as FuzzRequest),
    'unicode and control characters in ids (body)': fc
      .tuple(fc.constantFrom(...idRoutes), badRuntimeId, badCheckpointId)
      .map(([route, runtimeId, checkpointId]) => {
        const body = { ...valid[route.path]! };
        if ('runtime_id' in body) body.runtime_id = runtimeId;
        else body.checkpoint_id = checkpointId;
        return post(route, json(body));
      }),
    'unicode and control characters in ids (URL)': fc
      .tuple(fc.constantFrom(...paramGets), fc.oneof(badRuntimeId, badCheckpointId), fc.boolean())
      .map(([route, value, encode]) => ({
        method: 'GET',
        // Unencoded, the value may be an invalid URL: fetch percent-encodes what it must, the
        // rest (a lone %, %ZZ) reaches the server as it is.
        path: fillPath(route.path, Object.fromEntries(route.params.map((name) => [name, encode ? encodeURIComponent(value.replace(/[\ud800-\udfff]/g, '?')) : value.replace(/[/?#]/g, '%')]))),
      })),
    'unicode and control characters in paths': fc
      .tuple(fc.constantFrom('/api/v1/runtimes/read-file', '/api/v1/runtimes/export'), strangePath)
      .map(([path, value]) => ({ method: 'POST', path, body: json({ runtime_id: fixtures.runtimeId, path: value }), contentType: 'application/json' }) as FuzzRequest),
    'wrong content type': fc.tuple(postRoute, wrongContentType).map(([route, contentType]) => post(route, json(valid[route.path]), contentType)),
    'truncated body': postRoute.chain((route) => {
      const text = json(valid[route.path]);
      return fc.integer({ min: 1, max: text.length - 1 }).map((cut) => post(route, text.slice(0, cut)));
    }),
    'bad query': fc.tuple(fc.constantFrom(...queryGets), badQuery).map(([route, query]) => ({
      method: 'GET',
      path: `${fillPath(route.path, { runtime_id: fixtures.runtimeId, checkpoint_id: fixtures.checkpointId, webhook_id: 'fuzz-hook' })}?${query}`,
    })),
  };
}
