import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RuntimectlClient } from '@runtimectl/client';
import { progressReporter } from './progress';
import { registerCheckpointLogResource } from './resources/checkpoint-log-resource';
import { registerFileResources } from './resources/file-resources';
import { registerCheckpointTools } from './tools/checkpoint-tools';
import { registerRuntimeTools } from './tools/runtime-tools';
import { registerWorkspaceTools } from './tools/workspace-tools';
import { MCP_SERVER_VERSION } from './version';

export interface RuntimectlMcpServerOptions {
  /** The daemon, through the client (its token decides what the agent may do: give it a key scoped to its runtime). */
  client: RuntimectlClient;
  /** The runtime this agent works in, named in the server's instructions; its checkpoint log is the resource listed. */
  runtimeId?: string;
  /** How often a long tool call (exec, checkout, fork, pause, resume, open_runtime) that asked for progress says it is still running (default 5 s). */
  progressIntervalMs?: number;
}

/**
 * An MCP server whose tools are one agent's loop over runtimectl: run commands and edit files in
 * its runtime, checkpoint, read the log, diff, roll back by checkout, fork to try alternatives,
 * pause and resume. Inputs are the HTTP API's own zod schemas (picked field by field); the
 * daemon's errors come back as tool errors naming their code, so the model can act on them. Long
 * tool calls report progress when asked; files (of a runtime, of a checkpoint) and checkpoint
 * logs are resources too, for clients that attach context by URI.
 */
export function createRuntimectlMcpServer(options: RuntimectlMcpServerOptions): McpServer {
  const server = new McpServer(
    { name: 'runtimectl', version: MCP_SERVER_VERSION },
    {
      instructions: [
        'Tools for a runtime: a sandbox (files and a shell) with undo and branches.',
        options.runtimeId ? `Your runtime is ${options.runtimeId}: pass it as runtime_id.` : 'Open a runtime with open_runtime, then pass its runtime_id.',
        'Checkpoint before a risky change; diff shows what changed since; checkout of a checkpoint gives a new runtime as it was then (roll back); fork tries alternatives side by side.',
      ].join(' '),
    },
  );
  const withProgress = progressReporter(options.progressIntervalMs);
  registerRuntimeTools(server, options.client, withProgress);
  registerWorkspaceTools(server, options.client, withProgress);
  registerCheckpointTools(server, options.client, withProgress);
  registerFileResources(server, options.client);
  registerCheckpointLogResource(server, options.client, options.runtimeId);
  return server;
}
