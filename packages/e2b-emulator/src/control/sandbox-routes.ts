/**
 * Control-plane routes of one sandbox's lifecycle: create (v2 and v1), connect (v2 and v1),
 * the deprecated resume, kill, pause, get info and set timeout.
 */
import type { EmulatorContext } from '../emulator-context.js';
import { ApiError } from '../http/api-error.js';
import { readJsonBody, sendEmpty, sendJson } from '../http/http-io.js';
import type { RouteContext, RouteTable } from '../http/route-table.js';
import type { CallInFlight } from '../knobs/call-log.js';
import type { SandboxRecord } from '../sandbox/sandbox-store.js';
import { assertCapacity, controlRoute } from './control-route.js';
import {
  connectSandboxBody,
  createSandboxBody,
  pauseSandboxBody,
  setTimeoutBody,
} from './request-schemas.js';
import { sandboxDetailView, sandboxView } from './sandbox-views.js';

export function addSandboxRoutes(routes: RouteTable, context: EmulatorContext): void {
  const create = controlRoute(context, 'create', (route, call) => createSandbox(context, route, call));
  const connect = controlRoute(context, 'connect', (route) => connectSandbox(context, route, 'connect'));
  routes
    .add('POST', '/v2/sandboxes', create)
    .add('POST', '/sandboxes', create)
    .add('POST', '/v2/sandboxes/{sandboxID}/connect', connect)
    .add('POST', '/sandboxes/{sandboxID}/connect', connect)
    .add('POST', '/sandboxes/{sandboxID}/resume', controlRoute(context, 'connect', (route) => connectSandbox(context, route, 'resume')))
    .add('DELETE', '/sandboxes/{sandboxID}', controlRoute(context, 'kill', (route) => killSandbox(context, route)))
    .add('POST', '/sandboxes/{sandboxID}/pause', controlRoute(context, 'pause', (route) => pauseSandbox(context, route)))
    .add('GET', '/sandboxes/{sandboxID}', controlRoute(context, 'get_info', (route) => getSandbox(context, route)))
    .add('POST', '/sandboxes/{sandboxID}/timeout', controlRoute(context, 'set_timeout', (route) => setSandboxTimeout(context, route)));
}

/** The sandbox named in the path, or ApiError(404) with a code body. */
export function requireSandbox(context: EmulatorContext, sandboxId: string | undefined): SandboxRecord {
  const record = sandboxId ? context.sandboxes.get(sandboxId) : undefined;
  if (!record) throw new ApiError(404, `sandbox "${sandboxId ?? ''}" not found`);
  return record;
}

async function createSandbox(context: EmulatorContext, { req, res }: RouteContext, call: CallInFlight): Promise<void> {
  const body = await readJsonBody(req, createSandboxBody);
  if (body.mcp !== undefined && body.mcp !== null) throw new ApiError(400, 'MCP gateways are not emulated');
  if (body.volumeMounts && body.volumeMounts.length > 0) throw new ApiError(400, 'volume mounts are not emulated');
  const resolved = context.templates.resolve(body.templateID);
  assertCapacity(context);
  const seed =
    resolved.kind === 'builtin'
      ? { templateId: resolved.template.name, alias: undefined, seedDirectory: resolved.template.directory }
      : { templateId: resolved.snapshot.templateId, alias: resolved.snapshot.alias, seedDirectory: resolved.snapshot.directory };
  const record = await context.sandboxes.create({
    ...seed,
    metadata: body.metadata ?? undefined,
    envVars: body.envVars ?? undefined,
    timeoutSeconds: body.timeout ?? context.defaultTimeoutSeconds,
    onTimeout: body.autoPause ? 'pause' : 'kill',
    onTimeoutKeepsMemory: body.autoPauseMemory ?? undefined,
    allowInternetAccess: body.allow_internet_access ?? undefined,
  });
  call.sandboxId = record.sandboxId;
  call.metadata = { ...record.metadata };
  sendJson(res, 201, sandboxView(record, context.envdVersion));
}

/**
 * Connect: a running sandbox answers 200 (timeout extended, never shortened); a paused one is
 * resumed (201), subject to the concurrency limit. The deprecated resume answers 409 for a
 * running sandbox instead.
 */
async function connectSandbox(
  context: EmulatorContext,
  { req, res, params }: RouteContext,
  flavour: 'connect' | 'resume',
): Promise<void> {
  const body = await readJsonBody(req, connectSandboxBody);
  const record = requireSandbox(context, params.sandboxID);
  const timeoutSeconds = body.timeout ?? context.defaultTimeoutSeconds;
  if (record.state === 'running') {
    if (flavour === 'resume') throw new ApiError(409, `sandbox "${record.sandboxId}" is already running`);
    context.sandboxes.extendTimeout(record, timeoutSeconds);
    sendJson(res, 200, sandboxView(record, context.envdVersion));
    return;
  }
  assertCapacity(context);
  await context.sandboxes.resume(record, timeoutSeconds, body.memory === false);
  sendJson(res, 201, sandboxView(record, context.envdVersion));
}

async function killSandbox(context: EmulatorContext, { res, params }: RouteContext): Promise<void> {
  const killed = await context.sandboxes.kill(params.sandboxID ?? '');
  if (!killed) throw new ApiError(404, `sandbox "${params.sandboxID ?? ''}" not found`);
  sendEmpty(res);
}

async function pauseSandbox(context: EmulatorContext, { req, res, params }: RouteContext): Promise<void> {
  const body = await readJsonBody(req, pauseSandboxBody);
  const record = requireSandbox(context, params.sandboxID);
  if (record.snapshotting) throw new ApiError(409, `sandbox "${record.sandboxId}" is being snapshotted`);
  if (!(await context.sandboxes.pause(record.sandboxId, body.memory ?? true))) {
    throw new ApiError(409, `sandbox "${record.sandboxId}" is already paused`);
  }
  sendEmpty(res);
}

async function getSandbox(context: EmulatorContext, { res, params }: RouteContext): Promise<void> {
  const record = requireSandbox(context, params.sandboxID);
  sendJson(res, 200, sandboxDetailView(record, context.envdVersion));
}

async function setSandboxTimeout(context: EmulatorContext, { req, res, params }: RouteContext): Promise<void> {
  const body = await readJsonBody(req, setTimeoutBody);
  const record = context.sandboxes.getRunning(params.sandboxID ?? '');
  // A paused sandbox has no timeout to set: E2B only finds running ones here.
  if (!record) throw new ApiError(404, `sandbox "${params.sandboxID ?? ''}" not found`);
  context.sandboxes.setTimeout(record, body.timeout);
  sendEmpty(res);
}
