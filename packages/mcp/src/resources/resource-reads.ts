import type { Variables } from '@modelcontextprotocol/sdk/shared/uriTemplate.js';
import { ErrorCode, McpError, type ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { daemonFailureOf } from '../daemon-failure';

/** MCP's error code for a resource that does not exist (the specification's -32002; the SDK names none). */
export const RESOURCE_NOT_FOUND = -32002;

/**
 * An MCP error whose message on the wire is ours alone: McpError's own starts `MCP error <code>: `,
 * which an SDK client then prefixes again; other clients would show it as it is.
 */
function resourceError(code: number, message: string, data?: Record<string, unknown>): McpError {
  const error = new McpError(code, message, data);
  error.message = message;
  return error;
}

/** The daemon's codes for a resource that is not there (for this key: another's runtime reads as missing too). */
const NOT_FOUND_CODES = new Set(['runtime_not_found', 'checkpoint_not_found', 'path_not_found', 'checkpoint_snapshot_deleted']);

/**
 * Reads a resource, turning what the daemon says into MCP errors (a resource read has no error
 * result as a tool call has): -32002 for what is not there, invalid params for a request refused
 * as malformed, internal error for the rest. The message names the daemon's code
 * (`runtime_not_found: runtime rt_… not found`) and the data holds the URI, nothing else: no
 * details, no request id, nothing of the host.
 */
export async function readingResource(uri: URL, read: () => Promise<ReadResourceResult>): Promise<ReadResourceResult> {
  try {
    return await read();
  } catch (error) {
    const failure = daemonFailureOf(error);
    if (failure === undefined) throw error;
    const code = NOT_FOUND_CODES.has(failure.code) ? RESOURCE_NOT_FOUND : failure.code === 'invalid_request' ? ErrorCode.InvalidParams : ErrorCode.InternalError;
    throw resourceError(code, `${failure.code}: ${failure.message}`, { uri: uri.href });
  }
}

/**
 * A variable of a matched URI template, percent-decoded: the SDK hands it over as the URI spells
 * it, and a path with a space or a `#` is spelled `%20`, `%23`. The client then checks it as the
 * API does (a runtime id, a path), like any other input.
 */
export function uriVariable(variables: Variables, name: string): string {
  const value = variables[name];
  if (typeof value !== 'string') throw resourceError(ErrorCode.InvalidParams, `invalid_request: ${name} must be one value`);
  try {
    return decodeURIComponent(value);
  } catch {
    throw resourceError(ErrorCode.InvalidParams, `invalid_request: ${name} is not a percent-encoded string`);
  }
}
