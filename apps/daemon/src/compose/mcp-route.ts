import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createRuntimectlClient } from '@runtimectl/client';
import { createRuntimectlMcpServer } from '@runtimectl/mcp';
import { bearerCredentials } from '@runtimectl/server-http';
import type { FastifyPluginAsync } from 'fastify';
import type { AddressInfo } from 'node:net';

export const MCP_PATH = '/mcp';

/**
 * `POST /mcp`: the MCP server (@runtimectl/mcp) over Streamable HTTP, stateless (each request a
 * fresh server and transport, answers as JSON), for MCP clients that speak HTTP rather than
 * launch a process. It runs behind the API's hooks (any valid key reaches it), and each tool call
 * is a request to this daemon on loopback carrying the caller's own credentials: the same scopes
 * and runtime scope hold for a tool call as for the route it calls. `selfUrl` is where this
 * daemon listens (known once it does).
 */
export function mcpRoutes(selfUrl: () => string): FastifyPluginAsync {
  return async (app) => {
    app.post(MCP_PATH, { config: { runtimectl: { scope: 'read' } } }, async (request, reply) => {
      const token = bearerCredentials(request.headers.authorization);
      const client = createRuntimectlClient({ baseUrl: selfUrl(), ...(token ? { token } : {}), retries: 0 });
      const server = createRuntimectlMcpServer({ client });
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      reply.hijack();
      reply.raw.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(request.raw, reply.raw, request.body);
    });
  };
}

/** This daemon as a client on the same machine reaches it: a wildcard address is reached on loopback. */
export function loopbackUrlOf(address: AddressInfo): string {
  const host = address.address === '0.0.0.0' ? '127.0.0.1' : address.address === '::' ? '[::1]' : address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}
