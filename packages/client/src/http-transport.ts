import { randomUUID } from 'node:crypto';
import { ErrorBodySchema } from '@runtimectl/core';
import type { z } from 'zod';
import { apiErrorFor, ClientTimeoutError, DaemonUnreachableError, RuntimectlApiError } from './api-errors';
import type { DaemonFetch, DaemonResponse } from './daemon-fetch';

export interface TransportOptions {
  /** Daemon base URL, e.g. http://127.0.0.1:7333 */
  baseUrl: string;
  /** Bearer token, when the daemon has auth configured. */
  token?: string;
  /** Per-request timeout (default 120 s: checkout on a real provider takes seconds). */
  timeoutMs?: number;
  /** Attempts after the first when the daemon could not be reached (default 2). */
  retries?: number;
  /** Default: the built-in fetch. */
  fetch?: DaemonFetch;
  /**
   * The Idempotency-Key of each POST, called once per request (its retries reuse it); default a
   * random UUID. A caller that wants to send a request again after a failure, as the same
   * request, gives keys it can reproduce.
   */
  idempotencyKeys?: () => string;
}

/** Connection failures before anything was sent: the daemon never saw the request. */
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL', 'UND_ERR_CONNECT_TIMEOUT']);

/** Whether a failed fetch may have delivered its request (any failure but a refused or impossible connection). */
function mayHaveBeenSent(error: unknown): boolean {
  const code = ((error as Error).cause as { code?: unknown } | undefined)?.code;
  return typeof code !== 'string' || !NOT_SENT.has(code);
}

export interface RequestOptions {
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  /** Send this Idempotency-Key (POSTs get a fresh one per call otherwise). */
  idempotencyKey?: string;
  /** Retries after a connection failure for this request, instead of the client's. */
  retries?: number;
}

const RETRY_DELAY_MS = 200;

/**
 * fetch with the daemon's conventions: bearer auth, JSON bodies, one Idempotency-Key per POST
 * (reused by retries, so a retried request is carried out once), error bodies turned into
 * error classes, deadlines.
 */
export class HttpTransport {
  readonly baseUrl: string;
  readonly #options: TransportOptions;
  readonly #fetch: DaemonFetch;

  constructor(options: TransportOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.#options = options;
    this.#fetch = options.fetch ?? fetch;
  }

  /** Sends and parses a JSON response with `schema`. */
  async json<S extends z.ZodType>(method: 'GET' | 'POST' | 'DELETE', path: string, schema: S, options: RequestOptions = {}): Promise<z.infer<S>> {
    const response = await this.send(method, path, options);
    const parsed = schema.safeParse(await response.json());
    if (!parsed.success) {
      throw new RuntimectlApiError({
        code: 'internal',
        status: response.status,
        message: `unexpected response from ${method} ${path}: ${parsed.error.message}`,
        ...requestIdOf(response),
      });
    }
    return parsed.data;
  }

  /** Sends; resolves with a 2xx response, throws the matching error class otherwise. */
  async send(method: 'GET' | 'POST' | 'DELETE', path: string, options: RequestOptions = {}): Promise<DaemonResponse> {
    const url = this.#url(path, options.query);
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.#options.token) headers.authorization = `Bearer ${this.#options.token}`;
    const idempotencyKey = method === 'POST' ? (options.idempotencyKey ?? this.#options.idempotencyKeys?.() ?? randomUUID()) : undefined;
    if (idempotencyKey !== undefined) {
      headers['content-type'] = 'application/json';
      headers['idempotency-key'] = idempotencyKey;
    }
    const body = method === 'POST' ? JSON.stringify(options.body ?? {}) : undefined;
    const timeoutMs = this.#options.timeoutMs ?? 120_000;
    const attempts = 1 + (options.retries ?? this.#options.retries ?? 2);
    // Retries carry the same key, so a POST the daemon received before its connection broke runs once.
    let mayHaveRun = false;
    for (let attempt = 1; ; attempt += 1) {
      let response: DaemonResponse;
      try {
        response = await this.#fetch(url, { method, headers, body, signal: AbortSignal.timeout(timeoutMs) });
      } catch (error) {
        if ((error as Error).name === 'TimeoutError') throw new ClientTimeoutError(url, timeoutMs);
        mayHaveRun ||= idempotencyKey !== undefined && mayHaveBeenSent(error);
        if (attempt >= attempts) throw new DaemonUnreachableError(this.baseUrl, (error as Error).cause ?? error, mayHaveRun, idempotencyKey);
        await new Promise((resolve) => setTimeout(resolve, RETRY_DELAY_MS * attempt));
        continue;
      }
      if (response.ok) return response;
      throw await errorOf(response);
    }
  }

  /**
   * Opens a Server-Sent Events stream (no deadline: it lasts until `signal` aborts or the daemon
   * ends it); throws the matching error class for a non-2xx answer.
   */
  async openStream(path: string, query: RequestOptions['query'], lastEventId: number | undefined, signal: AbortSignal): Promise<DaemonResponse> {
    const headers: Record<string, string> = { accept: 'text/event-stream' };
    if (this.#options.token) headers.authorization = `Bearer ${this.#options.token}`;
    if (lastEventId !== undefined) headers['last-event-id'] = String(lastEventId);
    let response: DaemonResponse;
    try {
      response = await this.#fetch(this.#url(path, query), { method: 'GET', headers, signal });
    } catch (error) {
      if (signal.aborted) throw error;
      throw new DaemonUnreachableError(this.baseUrl, (error as Error).cause ?? error);
    }
    if (!response.ok) throw await errorOf(response);
    return response;
  }

  #url(path: string, query: RequestOptions['query']): string {
    const url = new URL(this.baseUrl + path);
    for (const [key, value] of Object.entries(query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    return url.toString();
  }
}

function requestIdOf(response: DaemonResponse): { requestId?: string } {
  const requestId = response.headers.get('x-request-id');
  return requestId ? { requestId } : {};
}

async function errorOf(response: DaemonResponse): Promise<RuntimectlApiError> {
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  const parsed = ErrorBodySchema.safeParse(body);
  const retryAfter = Number(response.headers.get('retry-after'));
  const retryAfterMs = Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : undefined;
  if (!parsed.success) {
    return apiErrorFor({
      code: response.status === 401 ? 'unauthorized' : 'internal',
      status: response.status,
      message: `HTTP ${response.status}: ${text.slice(0, 200) || response.statusText}`,
      ...requestIdOf(response),
    });
  }
  const detailsRetry = parsed.data.details?.retry_after_ms;
  return apiErrorFor({
    code: parsed.data.code,
    status: response.status,
    message: parsed.data.error,
    ...(parsed.data.details ? { details: parsed.data.details } : {}),
    ...requestIdOf(response),
    ...(retryAfterMs !== undefined
      ? { retryAfterMs }
      : typeof detailsRetry === 'number'
        ? { retryAfterMs: detailsRetry }
        : {}),
  });
}
