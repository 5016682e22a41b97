/** `GET /v2/sandboxes`: running and paused sandboxes, filtered and paged as E2B does. */
import type { EmulatorContext } from '../emulator-context.js';
import { ApiError } from '../http/api-error.js';
import { sendJson } from '../http/http-io.js';
import type { RouteContext, RouteTable } from '../http/route-table.js';
import type { SandboxRecord, SandboxState } from '../sandbox/sandbox-store.js';
import { controlRoute } from './control-route.js';
import { decodeMetadataQuery, matchesMetadata } from './metadata-query.js';
import { compareKeys, paginate, type SortKey } from './paging.js';
import { listedSandboxView } from './sandbox-views.js';

export function addListRoutes(routes: RouteTable, context: EmulatorContext): void {
  routes.add('GET', '/v2/sandboxes', controlRoute(context, 'list', (route) => listSandboxes(context, route)));
}

async function listSandboxes(context: EmulatorContext, { res, url }: RouteContext): Promise<void> {
  const query = url.searchParams;
  const metadata = decodeMetadataQuery(query.get('metadata'));
  const states = parseStates(query.get('state'));
  const startedAfterMs = parseDate(query.get('startedAfter'));
  const template = query.get('template') || undefined;
  const descending = parseOrder(query.get('order'));

  const keyOf = (record: SandboxRecord): SortKey => ({ timeMs: record.startedAtMs, id: record.sandboxId });
  const matching = context.sandboxes
    .all()
    .filter((record) => states.has(record.state))
    .filter((record) => matchesMetadata(record.metadata, metadata))
    .filter((record) => startedAfterMs === undefined || record.startedAtMs >= startedAfterMs)
    .filter((record) => !template || record.templateId === template || record.alias === template)
    .sort((left, right) => (descending ? -1 : 1) * compareKeys(keyOf(left), keyOf(right)));
  const page = paginate(matching, keyOf, descending, query.get('limit'), query.get('nextToken'));
  const headers: Record<string, string> = { 'x-total-running': String(context.sandboxes.runningCount()) };
  if (page.nextToken) headers['x-next-token'] = page.nextToken;
  sendJson(res, 200, page.items.map((record) => listedSandboxView(record, context.envdVersion)), headers);
}

/** `state` is comma-joined (array form, explode false); absent means running and paused. */
function parseStates(value: string | null): Set<SandboxState> {
  if (value === null || value === '') return new Set(['running', 'paused']);
  const states = new Set<SandboxState>();
  for (const state of value.split(',')) {
    if (state !== 'running' && state !== 'paused') throw new ApiError(400, `invalid state '${state}'`);
    states.add(state);
  }
  return states;
}

function parseDate(value: string | null): number | undefined {
  if (value === null || value === '') return undefined;
  const timeMs = Date.parse(value);
  if (Number.isNaN(timeMs)) throw new ApiError(400, `invalid startedAfter '${value}'`);
  return timeMs;
}

function parseOrder(value: string | null): boolean {
  if (value === null || value === '' || value === 'desc') return true;
  if (value === 'asc') return false;
  throw new ApiError(400, `invalid order '${value}'`);
}
