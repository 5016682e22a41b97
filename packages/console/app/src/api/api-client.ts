import { ApiError, apiErrorFromResponse } from './api-error';

/** Same origin as the console: runtimed serves both, so no CORS and `connect-src 'self'` holds. */
export const API_BASE_PATH = '/api/v1';

export type QueryValues = Record<string, string | number | boolean | null | undefined>;

export interface ApiClient {
  get<T>(path: string, query?: QueryValues, signal?: AbortSignal): Promise<T>;
  post<T>(path: string, body: unknown, signal?: AbortSignal): Promise<T>;
  /** A raw request with the key (the event stream reads its body itself). Errors are thrown as for get. */
  open(path: string, query: QueryValues, headers: Record<string, string>, signal: AbortSignal): Promise<Response>;
}

export interface ApiClientOptions {
  /** The key of this session, read at each request (null: the daemon runs without auth). */
  readKey(): string | null;
  /** A 401: the key is missing, wrong, expired or revoked; the app goes back to the sign-in form. */
  onUnauthorized(error: ApiError): void;
  fetchImplementation?: typeof fetch;
}

export function buildApiUrl(path: string, query: QueryValues = {}): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') search.set(name, String(value));
  }
  const text = search.toString();
  return `${API_BASE_PATH}${path}${text ? `?${text}` : ''}`;
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  const fetchImplementation = options.fetchImplementation ?? globalThis.fetch.bind(globalThis);

  async function send(url: string, init: RequestInit): Promise<Response> {
    const headers = new Headers(init.headers);
    const key = options.readKey();
    // The key travels only in this header: never in a URL, where logs and history would keep it.
    if (key) headers.set('authorization', `Bearer ${key}`);
    const response = await fetchImplementation(url, { ...init, headers, credentials: 'omit', cache: 'no-store' });
    if (response.ok) return response;
    const error = await apiErrorFromResponse(response);
    if (response.status === 401) options.onUnauthorized(error);
    throw error;
  }

  return {
    async get<T>(path: string, query?: QueryValues, signal?: AbortSignal): Promise<T> {
      const response = await send(buildApiUrl(path, query), { method: 'GET', headers: { accept: 'application/json' }, signal: signal ?? null });
      return (await response.json()) as T;
    },
    async post<T>(path: string, body: unknown, signal?: AbortSignal): Promise<T> {
      const response = await send(buildApiUrl(path), {
        method: 'POST',
        headers: { accept: 'application/json', 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: signal ?? null,
      });
      const text = await response.text();
      return (text ? JSON.parse(text) : {}) as T;
    },
    open(path, query, headers, signal) {
      return send(buildApiUrl(path, query), { method: 'GET', headers, signal });
    },
  };
}
