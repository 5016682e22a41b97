import { WEBHOOK_RESPONSE_EXCERPT_MAX } from '@runtimectl/core';
import { requestTarget } from './receiver-url';
import { SIGNATURE_HEADER, signWebhookBody } from './webhook-signature';

/** How one POST ended. `errorCode` is null only for a 2xx. */
export interface AttemptResult {
  statusCode: number | null;
  errorCode: string | null;
  responseExcerpt: string | null;
}

export interface EventRequest {
  url: string;
  secret: string;
  webhookId: string;
  eventId: number;
  eventType: string;
  attempt: number;
  /** The JSON body, exactly as signed. */
  body: string;
  /** Unix seconds of the signature. */
  timestampSeconds: number;
  timeoutMs: number;
  /** Fires when the engine stops: the attempt is abandoned, not recorded. */
  abort: AbortSignal;
}

/** The bytes read from a response at most (the excerpt is cut from them). */
const EXCERPT_READ_BYTES = 4 * WEBHOOK_RESPONSE_EXCERPT_MAX;

/** Socket-level failures by the code Node gives them; anything else is `network_error`. */
const NETWORK_ERROR_CODES: Record<string, string> = {
  ECONNREFUSED: 'connection_refused',
  ECONNRESET: 'connection_reset',
  ENOTFOUND: 'dns_failure',
  EAI_AGAIN: 'dns_failure',
  EHOSTUNREACH: 'host_unreachable',
  ENETUNREACH: 'host_unreachable',
  UND_ERR_CONNECT_TIMEOUT: 'timeout',
  UND_ERR_HEADERS_TIMEOUT: 'timeout',
  UND_ERR_SOCKET: 'connection_reset',
};

/** A stable code for why no response came: never the error's message (it may name the URL). */
function errorCodeOf(error: unknown): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) return 'timeout';
  const cause = error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
  const code = typeof cause?.code === 'string' ? cause.code : undefined;
  return (code && NETWORK_ERROR_CODES[code]) ?? 'network_error';
}

/** The start of a response body, at most WEBHOOK_RESPONSE_EXCERPT_MAX characters; the rest is never read. */
async function excerptOf(response: Response): Promise<string | null> {
  const reader = response.body?.getReader();
  if (!reader) return null;
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < EXCERPT_READ_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  const text = Buffer.concat(chunks).subarray(0, EXCERPT_READ_BYTES).toString('utf8');
  return text === '' ? null : [...text].slice(0, WEBHOOK_RESPONSE_EXCERPT_MAX).join('');
}

/**
 * POSTs one event once: signed, with the ids a receiver dedupes on, redirects not followed (a
 * 3xx is a failure), bounded by `timeoutMs` including the excerpt. Never throws for the
 * receiver's sake; rethrows only when `abort` fired (the engine is stopping).
 */
export async function sendEvent(request: EventRequest, fetchImpl: typeof fetch = fetch): Promise<AttemptResult> {
  const target = requestTarget(request.url);
  const signal = AbortSignal.any([AbortSignal.timeout(request.timeoutMs), request.abort]);
  try {
    const response = await fetchImpl(target.url, {
      method: 'POST',
      redirect: 'manual',
      signal,
      body: request.body,
      headers: {
        'content-type': 'application/json',
        'user-agent': 'runtimectl-webhooks',
        [SIGNATURE_HEADER]: signWebhookBody(request.secret, request.body, request.timestampSeconds),
        'runtimectl-webhook-id': request.webhookId,
        'runtimectl-event-id': String(request.eventId),
        'runtimectl-event-type': request.eventType,
        'runtimectl-delivery-attempt': String(request.attempt),
        // Standard Webhooks' message id: the same on every attempt of this event to this webhook.
        'webhook-id': `${request.webhookId}:${request.eventId}`,
        ...(target.authorization ? { authorization: target.authorization } : {}),
      },
    });
    const responseExcerpt = await excerptOf(response).catch(() => null);
    const accepted = response.status >= 200 && response.status < 300;
    return { statusCode: response.status, errorCode: accepted ? null : 'http_status', responseExcerpt };
  } catch (error) {
    if (request.abort.aborted) throw error;
    return { statusCode: null, errorCode: errorCodeOf(error), responseExcerpt: null };
  }
}
