/**
 * What the client reads of an answer: the part of fetch's `Response` it uses (a Response is one).
 * The client calls one of `json()` and `text()` once, or reads `body` (an export, an event stream).
 */
export interface DaemonResponse {
  readonly ok: boolean;
  readonly status: number;
  readonly statusText: string;
  readonly headers: { get(name: string): string | null };
  readonly body: ReadableStream<Uint8Array> | null;
  json(): Promise<unknown>;
  text(): Promise<string>;
}

/** One request as the client makes it: a URL string, its own headers, a string body for a POST. */
export interface DaemonRequestInit {
  method: string;
  headers: Record<string, string>;
  body?: string | undefined;
  signal?: AbortSignal | undefined;
}

/**
 * What the client needs of `fetch`: the built-in fetch is one, and so is any function made for
 * proxies or tests; `createNodeHttpFetch()` is a cheaper one. A request that fails to get an
 * answer rejects as fetch does (`TypeError` with the socket error as `cause`, or the signal's reason).
 */
export type DaemonFetch = (url: string, init: DaemonRequestInit) => Promise<DaemonResponse>;
