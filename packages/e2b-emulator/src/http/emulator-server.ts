/**
 * The one HTTP server that plays both E2B roles: the control plane (the SDK's `apiUrl`) and
 * the shared envd host (its `sandboxUrl`), told apart the way E2B's sandbox host does it: an
 * envd path carrying an `E2b-Sandbox-Id` header goes to envd, everything else to the control
 * plane or the admin API.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { addAdminRoutes } from '../admin/admin-routes.js';
import type { EmulatorControls } from '../admin/admin-types.js';
import { addListRoutes } from '../control/list-routes.js';
import { addSandboxRoutes } from '../control/sandbox-routes.js';
import { addSnapshotRoutes } from '../control/snapshot-routes.js';
import type { EmulatorContext } from '../emulator-context.js';
import { ConnectRpcError, sendUnaryError } from '../envd/connect-framing.js';
import { addEnvdRoutes, isEnvdPath } from '../envd/envd-routes.js';
import { ApiError } from './api-error.js';
import { sendApiError, sendJson } from './http-io.js';
import { RouteTable } from './route-table.js';

/** E2B routes the SDK knows but the emulator does not serve: 501 rather than a misleading 404. */
const NOT_EMULATED: Array<[string, string]> = [
  ['GET', '/sandboxes'],
  ['GET', '/sandboxes/{sandboxID}/metrics'],
  ['GET', '/sandboxes/{sandboxID}/logs'],
  ['POST', '/sandboxes/{sandboxID}/fork'],
  ['POST', '/sandboxes/{sandboxID}/refreshes'],
  ['PUT', '/sandboxes/{sandboxID}/network'],
];

export function createEmulatorServer(context: EmulatorContext, controls: EmulatorControls): Server {
  const control = new RouteTable();
  addSandboxRoutes(control, context);
  addListRoutes(control, context);
  addSnapshotRoutes(control, context);
  addAdminRoutes(control, controls);
  control.add('GET', '/health', async ({ res }) => sendJson(res, 200, { message: 'Health check successful' }));
  for (const [method, pattern] of NOT_EMULATED) {
    control.add(method, pattern, async ({ res }) => {
      sendApiError(res, new ApiError(501, `${method} ${pattern} is not emulated`));
    });
  }
  const envd = new RouteTable();
  addEnvdRoutes(envd, context);

  return createServer((req, res) => {
    void dispatch(req, res, control, envd);
  });
}

async function dispatch(req: IncomingMessage, res: ServerResponse, control: RouteTable, envd: RouteTable): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://emulator.invalid');
  const method = req.method ?? 'GET';
  const toEnvd = isEnvdPath(url.pathname) && req.headers['e2b-sandbox-id'] !== undefined;
  const table = toEnvd ? envd : control;
  const rawPath = (req.url ?? '/').split('?')[0] ?? '/';
  const match = table.match(method, rawPath);
  try {
    if (!match) {
      answerUnrouted(res, method, url.pathname, toEnvd, table.hasPath(rawPath));
      return;
    }
    await match.handler({ req, res, params: match.params, url });
  } catch (error) {
    // Handlers answer their own protocol errors; this is the last resort, without a stack.
    if (res.headersSent) res.destroy();
    else sendApiError(res, new ApiError(500, error instanceof Error ? error.message : 'internal error'));
  }
}

function answerUnrouted(res: ServerResponse, method: string, pathname: string, toEnvd: boolean, pathKnown: boolean): void {
  if (toEnvd && pathname.includes('.')) {
    sendUnaryError(res, new ConnectRpcError('unimplemented', `${pathname} is not emulated`));
  } else if (pathKnown) {
    sendApiError(res, new ApiError(405, `method ${method} is not allowed on ${pathname}`));
  } else if (isEnvdPath(pathname)) {
    sendApiError(res, new ApiError(400, `envd path ${pathname} needs an E2b-Sandbox-Id header`));
  } else {
    sendApiError(res, new ApiError(404, `no route for ${method} ${pathname}`));
  }
}
