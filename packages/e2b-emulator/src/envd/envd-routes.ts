/** Every envd route: `/health`, `/files`, `filesystem.Filesystem/*` and `process.Process/*`. */
import type { EmulatorContext } from '../emulator-context.js';
import { ApiError } from '../http/api-error.js';
import { sendApiError, sendEmpty } from '../http/http-io.js';
import type { RouteTable } from '../http/route-table.js';
import { addFilesRoutes } from './files-routes.js';
import { addFilesystemRoutes } from './filesystem-rpc.js';
import { addProcessRoutes } from './process-rpc.js';
import { addWatchDirRoute } from './watch-dir-rpc.js';
import { requireRunningSandbox } from './envd-route.js';

/** Paths that belong to envd; the server routes them only when `E2b-Sandbox-Id` is present. */
export function isEnvdPath(pathname: string): boolean {
  return (
    pathname === '/health' ||
    pathname === '/files' ||
    pathname.startsWith('/filesystem.Filesystem/') ||
    pathname.startsWith('/process.Process/')
  );
}

export function addEnvdRoutes(routes: RouteTable, context: EmulatorContext): void {
  // No access token on /health (as envd): it only says whether the sandbox is up.
  routes.add('GET', '/health', async (route) => {
    const admission = await context.knobs.admit('health');
    if (admission.kind === 'fail') {
      sendApiError(route.res, new ApiError(admission.status, admission.message));
      return;
    }
    try {
      requireRunningSandbox(context, route);
      sendEmpty(route.res, 204);
    } catch (error) {
      sendApiError(route.res, new ApiError(502, (error as Error).message));
    }
  });
  addFilesRoutes(routes, context);
  addFilesystemRoutes(routes, context);
  addWatchDirRoute(routes, context);
  addProcessRoutes(routes, context);
}
