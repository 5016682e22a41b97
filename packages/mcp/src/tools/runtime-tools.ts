import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RuntimectlClient } from '@runtimectl/client';
import { RuntimeCloseRequestSchema, RuntimeOpenRequestSchema, RuntimePauseRequestSchema, RuntimeResumeRequestSchema } from '@runtimectl/core';
import type { WithProgress } from '../progress';
import { answer, asToolResult } from '../tool-results';

/** open_runtime, pause, resume (these three with progress: each can wait on the provider for seconds), close_runtime. */
export function registerRuntimeTools(server: McpServer, client: RuntimectlClient, withProgress: WithProgress): void {
  server.registerTool(
    'open_runtime',
    {
      title: 'Open a runtime',
      description: 'Opens a runtime (a sandbox with files and a shell), or attaches to it again when runtime_id names one that exists. Returns its runtime_id.',
      inputSchema: RuntimeOpenRequestSchema.pick({ runtime_id: true, conversation_id: true, sender_id: true, provider: true }),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (input, extra) => asToolResult(async () => answer(await withProgress(extra, 'open_runtime', () => client.open(input)))),
  );
  server.registerTool(
    'pause',
    {
      title: 'Pause a runtime',
      description: 'Snapshots the runtime, then frees its sandbox; resume brings it back under the same id with the same files. Commands running in it end.',
      inputSchema: RuntimePauseRequestSchema.pick({ runtime_id: true, name: true }),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    (input, extra) => asToolResult(async () => answer(await withProgress(extra, 'pause', () => client.pause(input)))),
  );
  server.registerTool(
    'resume',
    {
      title: 'Resume a runtime',
      description: 'Brings a paused runtime back under the same id, its files as they were at the pause.',
      inputSchema: RuntimeResumeRequestSchema.pick({ runtime_id: true }),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    (input, extra) => asToolResult(async () => answer(await withProgress(extra, 'resume', () => client.resume(input)))),
  );
  server.registerTool(
    'close_runtime',
    {
      title: 'Close a runtime',
      description: 'Closes a runtime for good: its sandbox is released and its snapshots deleted (keep_snapshots keeps them for checkouts). Use it for branches you abandon.',
      inputSchema: RuntimeCloseRequestSchema.pick({ runtime_id: true, keep_snapshots: true }),
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    (input) => asToolResult(async () => answer(await client.close(input))),
  );
}
