import { RuntimectlApiError, DaemonUnreachableError } from '@runtimectl/client';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** A tool's answer: its result as text for the model and as structured content for the client. */
export function answer(result: Record<string, unknown>, text: string = JSON.stringify(result, null, 2)): CallToolResult {
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
    if (error instanceof RuntimectlApiError || error instanceof DaemonUnreachableError) {
      const code = error instanceof RuntimectlApiError ? error.code : 'daemon_unreachable';
      return { isError: true, content: [{ type: 'text', text: `${code}: ${error.message}` }] };
    }
    throw error;
  }
}
