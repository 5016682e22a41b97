/**
 * `GET /sandboxes/{id}/metrics?start=&end=` (Unix seconds): the sandbox's resource samples in
 * that range (see `SandboxMetricsHistory`), oldest first, in E2B's `SandboxMetric` shape. A
 * running sandbox is sampled on each call; 404 for an unknown or killed sandbox.
 */
import type { EmulatorContext } from '../emulator-context.js';
import { ApiError } from '../http/api-error.js';
import { sendJson } from '../http/http-io.js';
import type { RouteContext, RouteTable } from '../http/route-table.js';
import { controlRoute } from './control-route.js';
import { requireSandbox } from './sandbox-routes.js';

export function addMetricsRoutes(routes: RouteTable, context: EmulatorContext): void {
  routes.add('GET', '/sandboxes/{sandboxID}/metrics', controlRoute(context, 'metrics', (route) => getMetrics(context, route)));
}

async function getMetrics(context: EmulatorContext, { res, params, url }: RouteContext): Promise<void> {
  const sandbox = requireSandbox(context, params.sandboxID);
  const start = unixSeconds(url.searchParams.get('start'), 'start');
  const end = unixSeconds(url.searchParams.get('end'), 'end');
  if (sandbox.state === 'running') {
    const groups = sandbox.processes.list().map((process) => process.pid);
    await sandbox.metrics.sample(sandbox.directory, groups, Date.now());
  }
  sendJson(
    res,
    200,
    sandbox.metrics.between(start, end).map(({ timestampMs, ...values }) => ({
      timestamp: new Date(timestampMs).toISOString(),
      timestampUnix: Math.round(timestampMs / 1000),
      ...values,
    })),
  );
}

function unixSeconds(value: string | null, name: string): number | undefined {
  if (value === null || value === '') return undefined;
  if (!/^\d+$/.test(value)) throw new ApiError(400, `${name} must be a Unix time in seconds`);
  return Number(value);
}
