import { ERROR_CODES, type ErrorCode } from '@runtimectl/core';
import { ERROR_STATUS } from '@runtimectl/server-http';
import type { Reply } from './http';

const KNOWN = new Set<string>(ERROR_CODES);
const ALLOWED_KEYS = new Set(['error', 'code', 'details']);

/**
 * Why `reply` is not a well-formed error answer, or undefined when it is: a JSON body
 * `{error: string, code, details?: object}` with nothing else, a code core knows, and the
 * status the contract gives that code.
 */
export function errorShapeProblem(reply: Reply): string | undefined {
  const body = reply.json;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return `body is not a JSON object: ${reply.text.slice(0, 200)}`;
  const record = body as Record<string, unknown>;
  const extra = Object.keys(record).filter((key) => !ALLOWED_KEYS.has(key));
  if (extra.length > 0) return `unexpected keys ${extra.join(', ')}`;
  if (typeof record.error !== 'string' || record.error.length === 0) return 'error is not a non-empty string';
  if (typeof record.code !== 'string' || !KNOWN.has(record.code)) return `unknown code ${String(record.code)}`;
  if (record.details !== undefined && (typeof record.details !== 'object' || record.details === null || Array.isArray(record.details))) {
    return 'details is not an object';
  }
  const expected = ERROR_STATUS[record.code as ErrorCode];
  if (reply.status !== expected) return `status ${reply.status} but code ${record.code} means ${expected}`;
  return undefined;
}

/** The error code of a non-2xx reply (after checking its shape), or 'ok' for a 2xx. */
export function outcomeOf(reply: Reply): string {
  if (reply.status >= 200 && reply.status < 300) return 'ok';
  const problem = errorShapeProblem(reply);
  if (problem) throw new Error(`malformed error answer (${reply.status}): ${problem}`);
  return (reply.json as { code: string }).code;
}
