import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createNodeHttpFetch, createRuntimectlClient } from '@runtimectl/client';
import { createRuntimectlMcpServer } from '@runtimectl/mcp';
import { bearerCredentials, isLoopbackHost } from '@runtimectl/server-http';
import type { FastifyPluginAsync } from 'fastify';
import type { AddressInfo } from 'node:net';

export const MCP_PATH = '/mcp';

/**
 * `POST /mcp`: the MCP server (@runtimectl/mcp) over Streamable HTTP, stateless (each request a
 * fresh server and transport, answers as JSON; as an SSE stream with progress notifications when
 * the call asks for progress), for MCP clients that speak HTTP rather than
 * launch a process. It runs behind the API's hooks (any valid key reaches it), and each tool call
 * is a request to this daemon on loopback carrying the caller's own credentials: the same scopes
 * and runtime scope hold for a tool call as for the route it calls. `selfUrl` is where this
 * daemon listens (known once it does). A request whose `Origin` is present and invalid (see
 * `originAllowed`) is refused 403 with a JSON-RPC error, as the transport requires.
 */
export function mcpRoutes(selfUrl: () => string): FastifyPluginAsync {
  return async (app) => {
    // The tool calls' loopback requests share one pool of kept-alive connections, over node:http
    // (a third of the built-in fetch's CPU per request: see createNodeHttpFetch).
    const fetch = createNodeHttpFetch();
    app.post(MCP_PATH, { config: { runtimectl: { scope: 'read' } } }, async (request, reply) => {
      const origin = request.headers.origin;
      if (!originAllowed(origin, request.headers.host)) {
        return reply.code(403).send({
          jsonrpc: '2.0',
          error: { code: -32000, message: `Forbidden: the Origin ${String(origin).slice(0, 200)} is neither this server nor a loopback one` },
          id: null,
        });
      }
      const token = bearerCredentials(request.headers.authorization);
      const client = createRuntimectlClient({ baseUrl: selfUrl(), fetch, ...(token ? { token } : {}), retries: 0 });
      const server = createRuntimectlMcpServer({ client });
      // JSON answers, except for a request asking for progress: its answer is an SSE stream, which
      // carries the progress notifications before the result.
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: !asksForProgress(request.body) });
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

/** Whether a JSON-RPC message (or batch) names a `_meta.progressToken`: the caller wants notifications as it runs. */
export function asksForProgress(body: unknown): boolean {
  const messages: unknown[] = Array.isArray(body) ? body : [body];
  return messages.some((message) => {
    const meta = (message as { params?: { _meta?: { progressToken?: unknown } } } | null)?.params?._meta;
    return meta?.progressToken !== undefined;
  });
}

/**
 * The Streamable HTTP transport's Origin rule (MCP 2025-11-25, transports, security warning):
 * "Servers MUST validate the Origin header on all incoming connections to prevent DNS rebinding
 * attacks. If the Origin header is present and invalid, servers MUST respond with HTTP 403."
 * Clients that are not browsers send none and are served. Valid: a page of this server itself
 * (the Origin's host is the request's Host, which without auth is already held to loopback and
 * http.allowed_hosts) or of a loopback address. Anything else — another site, `null`, not a URL —
 * is refused.
 */
export function originAllowed(origin: string | undefined, host: string | undefined): boolean {
  if (origin === undefined) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  if (host !== undefined && url.host === host.toLowerCase()) return true;
  return isLoopbackHost(url.hostname.replace(/^\[(.*)\]$/, '$1'));
}

/** This daemon as a client on the same machine reaches it: a wildcard address is reached on loopback. */
export function loopbackUrlOf(address: AddressInfo): string {
  const host = address.address === '0.0.0.0' ? '127.0.0.1' : address.address === '::' ? '[::1]' : address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}
