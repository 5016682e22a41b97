import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { daemonFailureOf } from './daemon-failure';

/**
 * A tool's answer: its result as structured content for the client and as text for the model
 * (compact JSON: a model reads it as well as indented JSON, which is a third larger to write,
 * send and parse on every call).
 */
export function answer(result: Record<string, unknown>, text: string = JSON.stringify(result)): CallToolResult {
  return { content: [{ type: 'text', text }], structuredContent: result };
}

/** A request this server refuses before asking the daemon, said as `invalid_request: …`. */
export function refusal(message: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: `invalid_request: ${message}` }] };
}

/**
 * A failure the agent can act on: the daemon's code and message (`runtime_not_found: runtime rt_…
 * not found`) as a tool error, never a protocol error, so the model sees it and tries otherwise.
 * Anything else is a bug of ours: it propagates.
 */
export async function asToolResult(run: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await run();
  } catch (error) {
    const failure = daemonFailureOf(error);
    if (failure === undefined) throw error;
    return { isError: true, content: [{ type: 'text', text: `${failure.code}: ${failure.message}` }] };
  }
}
