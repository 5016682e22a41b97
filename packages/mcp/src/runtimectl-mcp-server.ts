import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RuntimectlClient } from '@runtimectl/client';
import { registerCheckpointTools } from './tools/checkpoint-tools';
import { registerRuntimeTools } from './tools/runtime-tools';
import { registerWorkspaceTools } from './tools/workspace-tools';
import { MCP_SERVER_VERSION } from './version';

export interface RuntimectlMcpServerOptions {
  /** The daemon, through the client (its token decides what the agent may do: give it a key scoped to its runtime). */
  client: RuntimectlClient;
  /** The runtime this agent works in, named in the server's instructions. */
  runtimeId?: string;
}

/**
 * An MCP server whose tools are one agent's loop over runtimectl: run commands and edit files in
 * its runtime, checkpoint, read the log, diff, roll back by checkout, fork to try alternatives,
 * pause and resume. Inputs are the HTTP API's own zod schemas (picked field by field); the
 * daemon's errors come back as tool errors naming their code, so the model can act on them.
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
  registerRuntimeTools(server, options.client);
  registerWorkspaceTools(server, options.client);
  registerCheckpointTools(server, options.client);
  return server;
}
