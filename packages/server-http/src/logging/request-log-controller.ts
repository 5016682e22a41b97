import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import { routeLabelOf } from '../request-hooks';

/**
 * fastify's per-request log lines, trimmed to one `info` line per answered request (method,
 * route pattern, status, duration; the request id comes from the logger's bindings). The
 * incoming line drops to `debug`: two info lines per request cost a measurable share of
 * throughput. Headers are never logged.
 */
export class RequestLogController extends LogController {
  constructor() {
    super({ requestIdLogLabel: 'request_id' });
  }

  override incomingRequest(request: FastifyRequest): void {
    request.log.debug({ method: request.method, url: request.url }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const fields = {
      method: request.method,
      route: routeLabelOf(request),
      status: reply.statusCode,
      duration_ms: reply.elapsedTime,
    };
    if (error) reply.log.error({ ...fields, err: error }, 'request errored');
    else reply.log.info(fields, 'request completed');
  }
}
