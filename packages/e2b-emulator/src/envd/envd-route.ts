/**
 * Wraps envd handlers. envd is reached through one shared host that routes on the
 * `E2b-Sandbox-Id` header: an unknown, paused or dead sandbox answers HTTP 502 (the SDK's
 * "sandbox timeout" TimeoutError), a wrong `X-Access-Token` 401. Then the operation's knobs
 * run, then the handler. Each family answers errors in its own protocol: `/files` with
 * `{code: <status>, message}`, Connect unary with `{code: "<connect code>"}` and the mapped
 * status, Connect streams with an end-stream error.
 */
import type { ServerResponse } from 'node:http';
import type { EmulatorContext } from '../emulator-context.js';
import { ApiError } from '../http/api-error.js';
import { headerValue, sendApiError } from '../http/http-io.js';
import type { RouteContext, RouteHandler } from '../http/route-table.js';
import type { EmulatorOperation } from '../knobs/operations.js';
import { InvalidSandboxPathError } from '../sandbox/sandbox-paths.js';
import type { SandboxRecord } from '../sandbox/sandbox-store.js';
import { UnknownSandboxUserError } from '../sandbox/sandbox-users.js';
import { connectCodeOfHttpStatus, ConnectRpcError, sendUnaryError } from './connect-framing.js';
import { ConnectStreamWriter } from './connect-stream.js';
import { isSignedFileUrl, tokenOfSignedUrl, verifyFileSignature } from './file-signature.js';

export type EnvdHandler = (route: RouteContext, sandbox: SandboxRecord) => Promise<void>;
type Family = 'http' | 'unary' | 'stream';

/** A sandbox that is gone (or paused) at the edge: HTTP 502, whatever the family. */
class SandboxUnreachable extends Error {}

export const envdHttpRoute = (context: EmulatorContext, operation: EmulatorOperation, handler: EnvdHandler) =>
  envdRoute(context, operation, 'http', handler);
export const envdUnaryRoute = (context: EmulatorContext, operation: EmulatorOperation, handler: EnvdHandler) =>
  envdRoute(context, operation, 'unary', handler);
export const envdStreamRoute = (context: EmulatorContext, operation: EmulatorOperation, handler: EnvdHandler) =>
  envdRoute(context, operation, 'stream', handler);

function envdRoute(context: EmulatorContext, operation: EmulatorOperation, family: Family, handler: EnvdHandler): RouteHandler {
  return async (route) => {
    try {
      const sandbox = sandboxOfRequest(context, route);
      authenticate(route, sandbox);
      const admission = await context.knobs.admit(operation);
      if (admission.kind === 'fail') throw injectedFailure(family, admission.status, admission.message);
      await handler(route, sandbox);
    } catch (error) {
      sendEnvdError(route.res, family, error);
    }
  };
}

/** The running sandbox named by `E2b-Sandbox-Id`; throws SandboxUnreachable otherwise. */
export function requireRunningSandbox(context: EmulatorContext, route: RouteContext): SandboxRecord {
  const sandboxId = headerValue(route.req, 'e2b-sandbox-id');
  const sandbox = sandboxId ? context.sandboxes.getRunning(sandboxId) : undefined;
  if (!sandbox) throw new SandboxUnreachable(`The sandbox "${sandboxId ?? ''}" was not found or is not running`);
  return sandbox;
}

/** The sandbox `E2b-Sandbox-Id` names or, for a pre-signed `/files` URL without it, the one that signed it. */
function sandboxOfRequest(context: EmulatorContext, route: RouteContext): SandboxRecord {
  if (headerValue(route.req, 'e2b-sandbox-id') !== undefined || !isSignedFileUrl(route.url)) return requireRunningSandbox(context, route);
  const running = context.sandboxes.all().filter((sandbox) => sandbox.state === 'running');
  return tokenOfSignedUrl(route.url, route.req.method ?? 'GET', running, Date.now());
}

/** The access token in `X-Access-Token`, or a valid URL signature made with it (envd's two ways). */
function authenticate(route: RouteContext, sandbox: SandboxRecord): void {
  if (headerValue(route.req, 'x-access-token') === sandbox.envdAccessToken) return;
  if (isSignedFileUrl(route.url)) {
    verifyFileSignature(route.url, route.req.method ?? 'GET', sandbox.envdAccessToken, Date.now());
    return;
  }
  throw new ApiError(401, 'unauthorized access, please provide a valid access token');
}

function injectedFailure(family: Family, status: number, message: string): Error {
  if (status === 502) return new SandboxUnreachable(message);
  return family === 'http' ? new ApiError(status, message) : new ConnectRpcError(connectCodeOfHttpStatus(status), message);
}

function sendEnvdError(res: ServerResponse, family: Family, error: unknown): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  if (error instanceof SandboxUnreachable) {
    sendApiError(res, new ApiError(502, error.message));
    return;
  }
  const normalized = normalizeError(family, error);
  if (normalized instanceof ApiError) sendApiError(res, normalized);
  else if (family === 'stream') new ConnectStreamWriter(res).end(normalized);
  else sendUnaryError(res, normalized);
}

function normalizeError(family: Family, error: unknown): ApiError | ConnectRpcError {
  if (error instanceof InvalidSandboxPathError) {
    return family === 'http' ? new ApiError(400, error.message) : new ConnectRpcError('invalid_argument', error.message);
  }
  if (error instanceof UnknownSandboxUserError) {
    return family === 'http' ? new ApiError(401, error.message) : new ConnectRpcError('unauthenticated', error.message);
  }
  if (error instanceof ApiError) {
    return family === 'http' ? error : new ConnectRpcError(connectCodeOfHttpStatus(error.status), error.message);
  }
  if (error instanceof ConnectRpcError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return family === 'http' ? new ApiError(500, message) : new ConnectRpcError('internal', message);
}
