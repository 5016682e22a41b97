/** Small request/response helpers shared by every route of the emulator. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { z } from 'zod';
import { ApiError } from './api-error.js';

/** Largest JSON request body accepted (control plane, admin and unary RPC). */
const MAX_JSON_BODY_BYTES = 4 * 1024 * 1024;

/** Reads the whole request body; rejects with ApiError(413) past `limitBytes`. */
export async function readBody(req: IncomingMessage, limitBytes = MAX_JSON_BODY_BYTES): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    total += buffer.length;
    if (total > limitBytes) throw new ApiError(413, `request body exceeds ${limitBytes} bytes`);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

/** Reads and validates a JSON body; an empty body validates as `{}`. Throws ApiError(400). */
export async function readJsonBody<T extends z.ZodType>(req: IncomingMessage, schema: T): Promise<z.output<T>> {
  const raw = await readBody(req);
  let value: unknown = {};
  if (raw.length > 0) {
    try {
      value = JSON.parse(raw.toString('utf8'));
    } catch {
      throw new ApiError(400, 'request body is not valid JSON');
    }
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? ` at ${issue.path.join('.')}` : '';
    throw new ApiError(400, `invalid request body${where}: ${issue?.message ?? 'invalid'}`);
  }
  return parsed.data;
}

/** Sends a JSON value with the given status and optional extra headers. */
export function sendJson(
  res: ServerResponse,
  status: number,
  value: unknown,
  headers: Record<string, string> = {},
): void {
  const body = Buffer.from(JSON.stringify(value), 'utf8');
  res.writeHead(status, { ...headers, 'content-type': 'application/json', 'content-length': body.length });
  res.end(body);
}

/** Sends an empty response (204 for E2B's "done" answers). */
export function sendEmpty(res: ServerResponse, status = 204): void {
  res.writeHead(status);
  res.end();
}

/** Sends E2B's error body `{code, message}` with the same HTTP status. */
export function sendApiError(res: ServerResponse, error: ApiError): void {
  sendJson(res, error.status, { code: error.status, message: error.message });
}

/** The first value of a request header, or undefined. */
export function headerValue(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}
