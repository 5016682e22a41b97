/**
 * The admin API under `/_emulator` (JSON, no authentication: the emulator is a local test
 * tool). Errors use the same `{code, message}` body as the control plane.
 */
import { ApiError } from '../http/api-error.js';
import { readJsonBody, sendApiError, sendEmpty, sendJson } from '../http/http-io.js';
import type { RouteContext, RouteHandler, RouteTable } from '../http/route-table.js';
import {
  ADMIN_PREFIX,
  dropStreamBody,
  failNextBody,
  hangNextBody,
  latencyBody,
  maxSandboxesBody,
  type EmulatorControls,
} from './admin-types.js';
import { z } from 'zod';

export function addAdminRoutes(routes: RouteTable, controls: EmulatorControls): void {
  const route = (handler: RouteHandler): RouteHandler => async (context) => {
    try {
      await handler(context);
    } catch (error) {
      if (error instanceof ApiError) sendApiError(context.res, error);
      else if (error instanceof RangeError) sendApiError(context.res, new ApiError(400, error.message));
      else throw error;
    }
  };
  routes
    .add('GET', `${ADMIN_PREFIX}/state`, route(async ({ res }) => sendJson(res, 200, await controls.state())))
    .add('GET', `${ADMIN_PREFIX}/call-log`, route(async ({ res }) => sendJson(res, 200, { calls: await controls.callLog() })))
    .add('POST', `${ADMIN_PREFIX}/reset`, route(async ({ req, res }) => {
      await readJsonBody(req, z.unknown());
      await controls.reset();
      sendEmpty(res);
    }))
    .add('PUT', `${ADMIN_PREFIX}/latency`, route(async ({ req, res }) => {
      await controls.setLatencies(await readJsonBody(req, latencyBody));
      sendJson(res, 200, (await controls.state()).latencyMs);
    }))
    .add('PUT', `${ADMIN_PREFIX}/max-sandboxes`, route(async ({ req, res }) => {
      await controls.setMaxSandboxes((await readJsonBody(req, maxSandboxesBody)).maxSandboxes);
      sendEmpty(res);
    }))
    .add('POST', `${ADMIN_PREFIX}/fail`, route(async ({ req, res }) => {
      const { operation, ...fault } = await readJsonBody(req, failNextBody);
      await controls.failNext(operation, fault);
      sendEmpty(res);
    }))
    .add('POST', `${ADMIN_PREFIX}/hang`, route(async ({ req, res }) => {
      const { operation, ...fault } = await readJsonBody(req, hangNextBody);
      await controls.hangNext(operation, fault);
      sendEmpty(res);
    }))
    .add('POST', `${ADMIN_PREFIX}/drop-stream`, route(async ({ req, res }) => {
      await controls.dropNextStreams(await readJsonBody(req, dropStreamBody));
      sendEmpty(res);
    }))
    .add('POST', `${ADMIN_PREFIX}/sandboxes/{sandboxId}/expire`, route(async ({ res, params }: RouteContext) => {
      if (!(await controls.expireSandbox(params.sandboxId ?? ''))) {
        throw new ApiError(404, `sandbox "${params.sandboxId ?? ''}" is not running`);
      }
      sendEmpty(res);
    }));
}
