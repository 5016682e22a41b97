import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createNodeHttpFetch, createRuntimectlClient } from '@runtimectl/client';
import { createRuntimectlMcpServer } from './runtimectl-mcp-server';

export interface StdioOptions {
  /** The daemon (RUNTIMECTL_URL). */
  url: string;
  /** Its bearer token or API key (RUNTIMECTL_TOKEN): scope it to the agent's runtime. */
  token?: string;
  /** The agent's runtime (RUNTIMECTL_RUNTIME), named in the server's instructions. */
  runtimeId?: string;
}

/** Serves the MCP server over stdin/stdout until stdin ends (what MCP clients launch). */
export async function serveStdio(options: StdioOptions): Promise<void> {
  const client = createRuntimectlClient({ baseUrl: options.url, fetch: createNodeHttpFetch(), ...(options.token ? { token: options.token } : {}) });
  const server = createRuntimectlMcpServer({ client, ...(options.runtimeId ? { runtimeId: options.runtimeId } : {}) });
  await server.connect(new StdioServerTransport());
}
