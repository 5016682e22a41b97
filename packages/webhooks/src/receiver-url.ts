/**
 * How a webhook URL is shown (`GET /webhooks`, logs): scheme, host, port and path only.
 * Credentials, query and fragment may carry secrets (tokens in `?key=`), so they never appear.
 */
export function publicWebhookUrl(url: string): string {
  const parsed = new URL(url);
  return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
}

/**
 * Where a request goes and its Basic authorization: `fetch` refuses URLs with credentials, so
 * `user:password@` moves into the `authorization` header.
 */
export function requestTarget(url: string): { url: string; authorization: string | undefined } {
  const parsed = new URL(url);
  if (parsed.username === '' && parsed.password === '') return { url, authorization: undefined };
  const credentials = `${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`;
  parsed.username = '';
  parsed.password = '';
  return { url: parsed.toString(), authorization: `Basic ${Buffer.from(credentials).toString('base64')}` };
}
