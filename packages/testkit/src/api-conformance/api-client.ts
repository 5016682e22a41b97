export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  /** Parsed JSON when the response is JSON, else the text. */
  body: T;
  /** The raw bytes of the body. */
  bytes: Uint8Array;
}

export interface RequestOptions {
  /** A JSON value (serialised) or a string sent as is. */
  body?: unknown;
  headers?: Record<string, string>;
  /** Send the configured token (default true). */
  authorize?: boolean;
}

/**
 * A plain fetch client for the suite: it speaks HTTP only (black-box), remembers every runtime
 * it saw opened or checked out so the suite can close them afterwards.
 */
export class ApiClient {
  readonly openedRuntimeIds = new Set<string>();

  constructor(
    readonly baseUrl: string,
    readonly token: string | undefined,
  ) {}

  async request<T = any>(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = {};
    if (options.authorize !== false && this.token !== undefined) headers.authorization = `Bearer ${this.token}`;
    let body: string | undefined;
    if (options.body !== undefined) {
      body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    }
    const response = await fetch(`${this.baseUrl}${path}`, { method, headers: { ...headers, ...options.headers }, body });
    const bytes = new Uint8Array(await response.arrayBuffer());
    const text = new TextDecoder().decode(bytes);
    const isJson = (response.headers.get('content-type') ?? '').startsWith('application/json');
    const parsed = isJson && text !== '' ? (JSON.parse(text) as T) : (text as T);
    this.#remember(parsed);
    return { status: response.status, headers: response.headers, body: parsed, bytes };
  }

  get<T = any>(path: string, options: Omit<RequestOptions, 'body'> = {}): Promise<ApiResponse<T>> {
    return this.request<T>('GET', path, options);
  }

  post<T = any>(path: string, body: unknown, options: Omit<RequestOptions, 'body'> = {}): Promise<ApiResponse<T>> {
    return this.request<T>('POST', path, { ...options, body });
  }

  /** Every runtime id the daemon lists, walking all pages. */
  async listAllRuntimeIds(query = ''): Promise<string[]> {
    const ids: string[] = [];
    let cursor: string | null = null;
    do {
      const params = new URLSearchParams(query);
      params.set('limit', '500');
      if (cursor !== null) params.set('cursor', cursor);
      const page = await this.get(`/api/v1/runtimes?${params}`);
      if (page.status !== 200) throw new Error(`listing runtimes failed: ${page.status} ${JSON.stringify(page.body)}`);
      ids.push(...page.body.runtimes.map((runtime: { runtime_id: string }) => runtime.runtime_id));
      cursor = page.body.next_cursor;
    } while (cursor !== null);
    return ids;
  }

  /** Remembers `body.runtime`, and every child of an N-way checkout or fork (`body.results[].runtime`). */
  #remember(body: unknown): void {
    const results = (body as { results?: unknown } | null)?.results;
    for (const answer of [body, ...(Array.isArray(results) ? results : [])]) {
      const runtimeId = (answer as { runtime?: { runtime_id?: unknown } } | null)?.runtime?.runtime_id;
      if (typeof runtimeId === 'string') this.openedRuntimeIds.add(runtimeId);
    }
  }
}

/** `encodeURIComponent` for a path segment. */
export const segment = (value: string) => encodeURIComponent(value);
