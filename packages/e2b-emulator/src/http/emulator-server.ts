/**
 * The one HTTP server that plays both E2B roles: the control plane (the SDK's `apiUrl`) and
 * the shared envd host (its `sandboxUrl`), told apart the way E2B's sandbox host does it: an
 * envd path carrying an `E2b-Sandbox-Id` header goes to envd, everything else to the control
 * plane or the admin API.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { addAdminRoutes } from '../admin/admin-routes.js';
import type { EmulatorControls } from '../admin/admin-types.js';
import { addForkRoutes } from '../control/fork-routes.js';
import { addMetricsRoutes } from '../control/metrics-routes.js';
import { addListRoutes } from '../control/list-routes.js';
import { addSandboxRoutes } from '../control/sandbox-routes.js';
import { addSnapshotRoutes } from '../control/snapshot-routes.js';
import type { EmulatorContext } from '../emulator-context.js';
import { ConnectRpcError, sendUnaryError } from '../envd/connect-framing.js';
import { ConnectStreamWriter } from '../envd/connect-stream.js';
import { addEnvdRoutes, isEnvdPath } from '../envd/envd-routes.js';
import { ApiError } from './api-error.js';
import { headerValue, sendApiError, sendJson } from './http-io.js';
import { RouteTable } from './route-table.js';

export function createEmulatorServer(context: EmulatorContext, controls: EmulatorControls): Server {
  const control = new RouteTable();
  addSandboxRoutes(control, context);
  addListRoutes(control, context);
  addSnapshotRoutes(control, context);
  addForkRoutes(control, context);
  addMetricsRoutes(control, context);
  addAdminRoutes(control, controls);
  control.add('GET', '/health', async ({ res }) => sendJson(res, 200, { message: 'Health check successful' }));
  const envd = new RouteTable();
  addEnvdRoutes(envd, context);

  const server = createServer((req, res) => {
    void dispatch(req, res, control, envd);
  });
  // Idle connections outlive any client's own idle timeout (undici's fetch: 4 s), as a real
  // API's load balancer does: the client always closes first, so a request it sends on a reused
  // connection is never met by the server closing it (Node's default 5 s made "fetch failed"
  // under load, when the daemon's event loop lagged past its own timer).
  server.keepAliveTimeout = IDLE_CONNECTION_MS;
  return server;
}

const IDLE_CONNECTION_MS = 65_000;

async function dispatch(req: IncomingMessage, res: ServerResponse, control: RouteTable, envd: RouteTable): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://emulator.invalid');
  const method = req.method ?? 'GET';
  // A pre-signed /files URL names its sandbox by its signature instead (see file-signature.ts).
  const signedFile = url.pathname === '/files' && url.searchParams.has('signature');
  const toEnvd = isEnvdPath(url.pathname) && (req.headers['e2b-sandbox-id'] !== undefined || signedFile);
  const table = toEnvd ? envd : control;
  const rawPath = (req.url ?? '/').split('?')[0] ?? '/';
  const match = table.match(method, rawPath);
  try {
    if (!match) {
      answerUnrouted(req, res, url, toEnvd, table.hasPath(rawPath));
      return;
    }
    await match.handler({ req, res, params: match.params, url });
  } catch (error) {
    // Handlers answer their own protocol errors; this is the last resort, without a stack.
    if (res.headersSent) res.destroy();
    else sendApiError(res, new ApiError(500, error instanceof Error ? error.message : 'internal error'));
  }
}

/**
 * A request no route serves. What E2B has and the emulator does not (logs, network, template
 * builds and aliases, v1 list, envd's polling watcher `filesystem.Filesystem/CreateWatcher` …)
 * answers 501 "not emulated" in the caller's protocol, so the SDK raises an error saying so
 * instead of reading a 404 as "no such thing".
 */
function answerUnrouted(req: IncomingMessage, res: ServerResponse, url: URL, toEnvd: boolean, pathKnown: boolean): void {
  const method = req.method ?? 'GET';
  const pathname = url.pathname;
  req.resume();
  if (toEnvd && pathname.includes('.')) {
    const error = new ConnectRpcError('unimplemented', `${pathname.slice(1)} is not emulated by the e2b emulator`);
    // A streaming call reads its error from the end-stream envelope of a 200 response (Connect protocol).
    if (headerValue(req, 'content-type')?.startsWith('application/connect+')) new ConnectStreamWriter(res).end(error);
    else sendUnaryError(res, error);
  } else if (pathKnown) {
    sendApiError(res, new ApiError(405, `method ${method} is not allowed on ${pathname}`));
  } else if (isEnvdPath(pathname)) {
    sendApiError(res, new ApiError(400, `envd path ${pathname} needs an E2b-Sandbox-Id header`));
  } else {
    sendApiError(res, new ApiError(501, `${method} ${pathname} is not emulated by the e2b emulator`));
  }
}
