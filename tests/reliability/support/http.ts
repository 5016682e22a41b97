/** What one HTTP exchange with the daemon gave: never throws for a non-2xx status. */
export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed JSON body, or undefined when the body was not JSON. */
  json: unknown;
}

export interface RequestOptions {
  body?: unknown;
  /** A body sent exactly as given (no JSON encoding). */
  rawBody?: string | Uint8Array;
  headers?: Record<string, string>;
  /** Client-side bound on the whole exchange; past it the request is reported as hung. Default 60 s. */
  timeoutMs?: number;
}

/** Raised when the daemon did not answer within the client's bound: a hang, which no test accepts. */
export class HungRequestError extends Error {
  constructor(method: string, path: string, timeoutMs: number) {
    super(`${method} ${path} got no answer within ${timeoutMs} ms`);
    this.name = 'HungRequestError';
  }
}

/**
 * A minimal client over fetch for black-box tests: any method, path, body and headers (so bad
 * input can be sent as it is), the bearer token added unless the caller sets `authorization`.
 */
export class Api {
  constructor(
    readonly baseUrl: string,
    private readonly token?: string,
  ) {}

  async request(method: string, path: string, options: RequestOptions = {}): Promise<Reply> {
    const timeoutMs = options.timeoutMs ?? 60_000;
    const headers: Record<string, string> = {};
    if (this.token !== undefined) headers.authorization = `Bearer ${this.token}`;
    let body: string | Uint8Array | undefined;
    if (options.rawBody !== undefined) body = options.rawBody;
    else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    }
    Object.assign(headers, options.headers);
    // A plain timer (not AbortSignal.timeout, whose timer can be collected with the signal).
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    try {
      const response = await fetch(`${this.baseUrl}${path}`, { method, headers, body, signal: controller.signal });
      const text = await response.text();
      let json: unknown;
      try {
        json = text === '' ? undefined : JSON.parse(text);
      } catch {
        json = undefined;
      }
      return { status: response.status, headers: response.headers, text, json };
    } catch (error) {
      if (controller.signal.aborted) throw new HungRequestError(method, path, timeoutMs);
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  get(path: string, options?: RequestOptions): Promise<Reply> {
    return this.request('GET', path, options);
  }

  post(path: string, body: unknown, options: RequestOptions = {}): Promise<Reply> {
    return this.request('POST', path, { ...options, body });
  }

  /** POST that must succeed: returns the JSON body, else throws with the status and body. */
  async ok<T = Record<string, unknown>>(path: string, body: unknown, options: RequestOptions = {}): Promise<T> {
    const reply = await this.post(path, body, options);
    if (reply.status !== 200) throw new Error(`POST ${path} → ${reply.status}: ${reply.text.slice(0, 500)}`);
    return reply.json as T;
  }

  /** GET that must succeed: returns the JSON body. */
  async read<T = Record<string, unknown>>(path: string): Promise<T> {
    const reply = await this.get(path);
    if (reply.status !== 200) throw new Error(`GET ${path} → ${reply.status}: ${reply.text.slice(0, 500)}`);
    return reply.json as T;
  }
}
