/**
 * `POST /sandboxes/{id}/fork` (`Sandbox.fork`): the source is checkpointed in place (its
 * processes frozen while its directory is copied, then continued; its id and expiry stay) and
 * `count` sandboxes start from that one copy. Each fork succeeds or fails on its own, as on
 * E2B: the 201 body has one `{sandbox}` or `{error: {code, message}}` per fork (a fork past the
 * concurrency limit gets a 429 entry). A count outside 1…100 is 400, an unknown or killed source 404.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import type { EmulatorContext } from '../emulator-context.js';
import { ApiError } from '../http/api-error.js';
import { readJsonBody, sendJson } from '../http/http-io.js';
import type { RouteContext, RouteTable } from '../http/route-table.js';
import { copySandboxTree } from '../sandbox/copy-sandbox-tree.js';
import type { SandboxRecord } from '../sandbox/sandbox-store.js';
import { concurrencyLimitError, controlRoute } from './control-route.js';
import { forkSandboxBody, MAX_FORK_COUNT } from './request-schemas.js';
import { requireSandbox } from './sandbox-routes.js';
import { sandboxView } from './sandbox-views.js';

/** E2B's TTL of a fork when the request names none (SandboxForkRequest.timeout). */
const DEFAULT_FORK_TIMEOUT_SECONDS = 15;

type ForkResult = { sandbox: Record<string, unknown> } | { error: { code: number; message: string } };

export function addForkRoutes(routes: RouteTable, context: EmulatorContext): void {
  routes.add('POST', '/sandboxes/{sandboxID}/fork', controlRoute(context, 'fork', (route) => forkSandbox(context, route)));
}

async function forkSandbox(context: EmulatorContext, { req, res, params }: RouteContext): Promise<void> {
  const body = await readJsonBody(req, forkSandboxBody);
  const count = body.count ?? 1;
  if (count < 1 || count > MAX_FORK_COUNT) throw new ApiError(400, `count must be between 1 and ${MAX_FORK_COUNT}, got ${count}`);
  const source = requireSandbox(context, params.sandboxID);
  if (source.snapshotting) throw new ApiError(409, `sandbox "${source.sandboxId}" is being snapshotted`);
  const checkpoint = await checkpointOf(context, source);
  try {
    const results: ForkResult[] = [];
    for (let index = 0; index < count; index += 1) {
      results.push(await startFork(context, source, checkpoint, body.timeout ?? DEFAULT_FORK_TIMEOUT_SECONDS));
    }
    sendJson(res, 201, results);
  } finally {
    await rm(checkpoint, { recursive: true, force: true });
  }
}

/** Copies the source's files with its processes frozen (as E2B pauses it to snapshot), once for all forks. */
async function checkpointOf(context: EmulatorContext, source: SandboxRecord): Promise<string> {
  const parent = await mkdtemp(path.join(context.root, 'templates', 'fork-'));
  const checkpoint = path.join(parent, 'root');
  source.snapshotting = true;
  source.processes.signalAll('SIGSTOP');
  try {
    await copySandboxTree(source.directory, checkpoint);
    return parent;
  } catch (error) {
    await rm(parent, { recursive: true, force: true });
    throw error;
  } finally {
    source.snapshotting = false;
    if (source.state === 'running') source.processes.signalAll('SIGCONT');
  }
}

async function startFork(context: EmulatorContext, source: SandboxRecord, checkpoint: string, timeoutSeconds: number): Promise<ForkResult> {
  const max = context.knobs.maxSandboxes;
  if (max !== null && context.sandboxes.runningCount() >= max) {
    const limit = concurrencyLimitError(max);
    return { error: { code: limit.status, message: limit.message } };
  }
  try {
    const fork = await context.sandboxes.create({
      templateId: source.templateId,
      alias: source.alias,
      seedDirectory: path.join(checkpoint, 'root'),
      metadata: source.metadata,
      envVars: source.envVars,
      timeoutSeconds,
      onTimeout: source.onTimeout,
      onTimeoutKeepsMemory: source.onTimeoutKeepsMemory,
      allowInternetAccess: source.allowInternetAccess,
    });
    return { sandbox: sandboxView(fork, context.envdVersion) };
  } catch (error) {
    return { error: { code: 500, message: `failed to start the fork: ${(error as Error).message}` } };
  }
}
