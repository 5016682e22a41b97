/**
 * Snapshots and templates: `POST /sandboxes/{id}/snapshots`, `GET /snapshots` and
 * `DELETE /templates/{templateID}` (the SDK's deleteSnapshot). Deleting answers 400 while a
 * running or paused sandbox created from the template still exists, as E2B does.
 */
import type { EmulatorContext } from '../emulator-context.js';
import { ApiError } from '../http/api-error.js';
import { readJsonBody, sendEmpty, sendJson } from '../http/http-io.js';
import type { RouteContext, RouteTable } from '../http/route-table.js';
import { snapshotIdOf, snapshotNamesOf, type SnapshotRecord } from '../sandbox/snapshot-store.js';
import { splitTag } from '../sandbox/template-catalog.js';
import { controlRoute } from './control-route.js';
import { paginate, type SortKey } from './paging.js';
import { createSnapshotBody } from './request-schemas.js';
import { requireSandbox } from './sandbox-routes.js';

export function addSnapshotRoutes(routes: RouteTable, context: EmulatorContext): void {
  routes
    .add('POST', '/sandboxes/{sandboxID}/snapshots', controlRoute(context, 'snapshot', (route) => createSnapshot(context, route), { latencyInHandler: true }))
    .add('GET', '/snapshots', controlRoute(context, 'list_snapshots', (route) => listSnapshots(context, route)))
    .add('DELETE', '/templates/{templateID}', controlRoute(context, 'delete_template', (route) => deleteTemplate(context, route)));
}

function snapshotInfo(record: SnapshotRecord): { snapshotID: string; names: string[] } {
  return { snapshotID: snapshotIdOf(record), names: snapshotNamesOf(record) };
}

async function createSnapshot(context: EmulatorContext, { req, res, params }: RouteContext): Promise<void> {
  const body = await readJsonBody(req, createSnapshotBody);
  const sandbox = requireSandbox(context, params.sandboxID);
  if (sandbox.snapshotting) throw new ApiError(409, `sandbox "${sandbox.sandboxId}" is already being snapshotted`);
  sandbox.snapshotting = true;
  try {
    // The latency is the snapshot's duration: a second snapshot during it answers 409.
    await context.knobs.spendLatency('snapshot');
    const record = await context.snapshots.createFrom(sandbox, body.name ?? undefined);
    sendJson(res, 201, snapshotInfo(record));
  } finally {
    sandbox.snapshotting = false;
  }
}

async function listSnapshots(context: EmulatorContext, { res, url }: RouteContext): Promise<void> {
  const query = url.searchParams;
  const records = context.snapshots.list({
    sandboxId: query.get('sandboxID') || undefined,
    name: query.get('name') || undefined,
  });
  const keyOf = (record: SnapshotRecord): SortKey => ({ timeMs: record.createdAtMs, id: record.templateId });
  const page = paginate(records, keyOf, true, query.get('limit'), query.get('nextToken'));
  const headers: Record<string, string> = page.nextToken ? { 'x-next-token': page.nextToken } : {};
  sendJson(res, 200, page.items.map(snapshotInfo), headers);
}

async function deleteTemplate(context: EmulatorContext, { res, params }: RouteContext): Promise<void> {
  const templateId = params.templateID ?? '';
  // The tag is stripped: deleting `name:tag` deletes the whole template.
  const { reference } = splitTag(templateId);
  if (context.templates.builtinNames().includes(reference)) {
    throw new ApiError(403, `template '${reference}' is a built-in template of the emulator and cannot be deleted`);
  }
  const record = context.snapshots.find(reference);
  if (!record) throw new ApiError(404, `template '${reference}' not found`);
  const users = context.sandboxes.all().filter((sandbox) => sandbox.templateId === record.templateId);
  if (users.length > 0) {
    throw new ApiError(
      400,
      `cannot delete template '${reference}' because there are running or paused sandboxes using it (${users.length})`,
    );
  }
  await context.snapshots.delete(record);
  sendEmpty(res);
}
