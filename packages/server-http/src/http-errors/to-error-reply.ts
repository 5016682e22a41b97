import { ProviderCapacityError, RuntimectlError, StoreUnavailableError } from '@runtimectl/core';
import { errorReply, type ErrorReply } from './error-reply';

interface FastifyLikeError {
  code?: unknown;
  statusCode?: unknown;
  validation?: unknown;
  validationContext?: unknown;
  message?: unknown;
}

/** One entry of fastify's `error.validation` as fastify-type-provider-zod builds it from a zod issue. */
interface ZodValidationEntry {
  keyword: string;
  instancePath: string;
  message: string;
  params?: Record<string, unknown>;
}

/** Rebuilds the zod issues the type provider flattened into fastify's validation entries. */
function zodIssuesOf(validation: readonly ZodValidationEntry[]): Array<Record<string, unknown>> {
  return validation.map((entry) => ({
    ...entry.params,
    code: entry.keyword,
    path: entry.instancePath
      .split('/')
      .filter((segment) => segment !== '')
      .map((segment) => (/^\d+$/.test(segment) ? Number(segment) : segment)),
    message: entry.message,
  }));
}

function validationReply(error: FastifyLikeError): ErrorReply {
  const issues = zodIssuesOf(error.validation as ZodValidationEntry[]);
  const where = typeof error.validationContext === 'string' ? error.validationContext : 'request';
  const first = issues[0];
  const firstPath = Array.isArray(first?.path) && first.path.length > 0 ? `${first.path.join('.')}: ` : '';
  const summary = first ? `${firstPath}${String(first.message)}` : 'does not match the schema';
  return errorReply('invalid_request', `invalid ${where}: ${summary}`, { in: where, issues });
}

/** Whether `error` is one of fastify's own request errors (a 4xx it raised before our handler ran). */
function fastifyClientStatus(error: FastifyLikeError): number | undefined {
  if (typeof error.code !== 'string' || !error.code.startsWith('FST_')) return undefined;
  if (typeof error.statusCode !== 'number' || error.statusCode < 400 || error.statusCode >= 500) return undefined;
  return error.statusCode;
}

/**
 * Decides the response for anything thrown while handling a request. Core errors keep their
 * code and details; fastify's own request errors become `invalid_request`, `payload_too_large`
 * or `route_not_found`; everything else is an opaque `internal` that names only the request id.
 */
export function toErrorReply(error: unknown, requestId: string): ErrorReply {
  if (RuntimectlError.isInstance(error) && error.code !== 'internal') {
    const headers: Record<string, string> = {};
    const retryAfterMs =
      ProviderCapacityError.isInstance(error) || StoreUnavailableError.isInstance(error) ? error.retryAfterMs : undefined;
    if (retryAfterMs !== undefined) headers['retry-after'] = String(Math.max(0, Math.ceil(retryAfterMs / 1000)));
    return errorReply(error.code, error.message, error.details, headers);
  }
  const fastifyError = (typeof error === 'object' && error !== null ? error : {}) as FastifyLikeError;
  if (Array.isArray(fastifyError.validation) && fastifyError.validation.length > 0) {
    return validationReply(fastifyError);
  }
  const status = fastifyClientStatus(fastifyError);
  if (status === 413) return errorReply('payload_too_large', 'request body is larger than the configured limit');
  if (status === 404) return errorReply('route_not_found', 'no such route');
  if (status === 415) {
    return errorReply('invalid_request', 'unsupported content-type: send the body as application/json');
  }
  if (status !== undefined) return errorReply('invalid_request', String(fastifyError.message));
  return errorReply('internal', 'internal server error', { request_id: requestId });
}
