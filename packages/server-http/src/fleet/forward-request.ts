import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { REQUEST_ID_HEADER } from '../request-id';
import { FORWARDED_BY_HEADER } from './fleet-options';

/** Headers that describe one connection or one encoding of the body, never passed along (RFC 9110 §7.6.1). */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'content-length',
  'expect',
  'accept-encoding',
]);

function forwardedHeaders(request: FastifyRequest, nodeId: string): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined || HOP_BY_HOP.has(name)) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  headers.set(REQUEST_ID_HEADER, request.id);
  headers.set(FORWARDED_BY_HEADER, nodeId);
  headers.set('content-type', 'application/json');
  return headers;
}

/**
 * Sends `request` (its method, path, query, headers and JSON body) to `baseUrl` and streams the
 * answer back through `reply`. Resolves false when no answer came (connection refused or reset,
 * deadline passed) — nothing was sent to the caller then; true once the answer is being sent.
 * The forwarded request is aborted when the caller goes away or `timeoutMs` passes.
 */
export async function forwardRequest(
  request: FastifyRequest,
  reply: FastifyReply,
  target: { baseUrl: string; nodeId: string; timeoutMs: number },
): Promise<boolean> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(new Error(`no answer within ${target.timeoutMs} ms`)), target.timeoutMs);
  const callerGone = () => {
    if (!reply.raw.writableFinished) abort.abort(new Error('the caller went away'));
  };
  reply.raw.once('close', callerGone);
  const done = () => {
    clearTimeout(timer);
    reply.raw.off('close', callerGone);
  };
  let response: Response;
  try {
    response = await fetch(`${target.baseUrl.replace(/\/+$/, '')}${request.url}`, {
      method: request.method,
      headers: forwardedHeaders(request, target.nodeId),
      body: request.body === undefined ? null : JSON.stringify(request.body),
      signal: abort.signal,
      redirect: 'manual',
    });
  } catch (error) {
    done();
    request.log.warn({ err: error, node_id: target.nodeId }, 'forwarding to the runtime\'s home node failed');
    return false;
  }
  reply.code(response.status);
  for (const [name, value] of response.headers) {
    if (!HOP_BY_HOP.has(name) && name !== 'content-encoding') reply.header(name, value);
  }
  if (!response.body) {
    done();
    reply.send();
    return true;
  }
  const body = Readable.fromWeb(response.body as import('node:stream/web').ReadableStream<Uint8Array>);
  body.once('close', done);
  reply.send(body);
  return true;
}
