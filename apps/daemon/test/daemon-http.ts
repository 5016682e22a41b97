/** One complete HTTP answer: only a response whose body was read in full counts as received. */
export interface HttpAnswer {
  status: number;
  headers: Headers;
  text: string;
  body: any;
}

const REQUEST_DEADLINE_MS = 60_000;

/**
 * GET (no body) or POST (JSON body) under /api/v1 of a daemon. Rejects when no complete answer
 * arrived (connection refused or reset, body cut off): the caller cannot know what happened.
 */
export async function callDaemon(
  baseUrl: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<HttpAnswer> {
  const response = await fetch(`${baseUrl}/api/v1${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(REQUEST_DEADLINE_MS),
  });
  const text = await response.text();
  let parsed: unknown = undefined;
  try {
    parsed = text.length > 0 ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: response.status, headers: response.headers, text, body: parsed };
}

/** Every runtime the daemon knows, whatever its status (all pages). */
export async function listAllRuntimes(baseUrl: string): Promise<Array<{ runtime_id: string; status: string }>> {
  const runtimes: Array<{ runtime_id: string; status: string }> = [];
  let cursor: string | null = null;
  do {
    const query: string = `?limit=500${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const page = await callDaemon(baseUrl, `/runtimes${query}`);
    if (page.status !== 200) throw new Error(`GET /runtimes answered ${page.status}: ${page.text}`);
    runtimes.push(...page.body.runtimes);
    cursor = page.body.next_cursor;
  } while (cursor);
  return runtimes;
}

/** `runtimectl_reconciliation_total` by action, from the daemon's /metrics. */
export async function reconciliationCounts(baseUrl: string): Promise<Record<string, number>> {
  const response = await fetch(`${baseUrl}/metrics`, { signal: AbortSignal.timeout(REQUEST_DEADLINE_MS) });
  const counts: Record<string, number> = {};
  for (const match of (await response.text()).matchAll(/^runtimectl_reconciliation_total\{action="([a-z_]+)"\} (\d+)$/gm)) {
    counts[match[1]!] = Number(match[2]);
  }
  return counts;
}
