import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createRuntimectlClient, type RuntimectlClient } from '@runtimectl/client';
import { MemoryRuntimeStore, RuntimeService } from '@runtimectl/core';
import { buildServer } from '@runtimectl/server-http';
import { createMemoryProvider, type MemoryProviderSettings } from '@runtimectl/testkit';
import pino from 'pino';
import { createRuntimectlMcpServer, type RuntimectlMcpServerOptions } from '../src/index';

export interface McpHarness {
  /** The official SDK client, connected to the server. */
  mcp: Client;
  /** The daemon's API directly, to set a scene or check what a call did. */
  api: RuntimectlClient;
  close(): Promise<void>;
}

/**
 * The MCP server in process, over the SDK's in-memory transport, in front of a real HTTP server
 * (memory store, memory provider with `provider` settings). runtimed's tests drive it over stdio
 * and Streamable HTTP.
 */
export async function startMcpHarness(
  options: { provider?: MemoryProviderSettings } & Omit<RuntimectlMcpServerOptions, 'client'> = {},
): Promise<McpHarness> {
  const { provider, ...serverOptions } = options;
  const service = new RuntimeService({ store: new MemoryRuntimeStore(), providers: [createMemoryProvider(provider)], defaultProvider: 'memory', installationId: 'mcp-test' });
  const app = buildServer({ service, logger: pino({ level: 'silent' }), config: { version: '0.0.0' } });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const api = createRuntimectlClient({ baseUrl: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` });
  const server = createRuntimectlMcpServer({ client: api, ...serverOptions });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const mcp = new Client({ name: 'mcp-test', version: '0.0.0' });
  await mcp.connect(clientSide);
  return {
    mcp,
    api,
    close: async () => {
      await mcp.close();
      await app.close();
      await service.stop();
    },
  };
}
