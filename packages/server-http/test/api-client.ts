import type { FastifyInstance, LightMyRequestResponse } from 'fastify';

export interface InjectedJson<T = any> {
  status: number;
  headers: LightMyRequestResponse['headers'];
  body: T;
  raw: LightMyRequestResponse;
}

/** Small `inject` wrapper: JSON in, parsed JSON out (when the answer is JSON). */
export function apiClient(app: FastifyInstance, defaultHeaders: Record<string, string> = {}) {
  async function call<T = any>(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'HEAD' | 'PATCH' | 'OPTIONS',
    url: string,
    payload?: unknown,
    headers: Record<string, string> = {},
  ): Promise<InjectedJson<T>> {
    const raw = await app.inject({
      method,
      url,
      headers: { ...defaultHeaders, ...headers },
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
    const isJson = String(raw.headers['content-type'] ?? '').startsWith('application/json');
    return { status: raw.statusCode, headers: raw.headers, body: (isJson ? raw.json() : raw.body) as T, raw };
  }
  return {
    call,
    get: <T = any>(url: string, headers?: Record<string, string>) => call<T>('GET', url, undefined, headers),
    post: <T = any>(url: string, payload: unknown, headers?: Record<string, string>) => call<T>('POST', url, payload, headers),
  };
}
