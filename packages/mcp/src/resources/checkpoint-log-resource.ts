import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RuntimectlClient } from '@runtimectl/client';
import { readingResource, uriVariable } from './resource-reads';

/** The URI of a runtime's checkpoint log. */
export const checkpointLogUri = (runtimeId: string): string => `runtimectl://runtimes/${encodeURIComponent(runtimeId)}/checkpoints`;

/**
 * `runtimectl://runtimes/{runtime_id}/checkpoints`: the runtime's checkpoint log as JSON, the
 * newest first page (as the `log` tool answers it with no limit; `next_cursor` says whether there
 * is more, which `log` pages through). A server that knows its agent's runtime lists that log: a
 * listing that asks the daemon nothing, so it stays cheap however often a client lists.
 */
export function registerCheckpointLogResource(server: McpServer, client: RuntimectlClient, runtimeId: string | undefined): void {
  const listOwnLog = () => ({ resources: [{ uri: checkpointLogUri(runtimeId!), name: `${runtimeId} checkpoints`, mimeType: 'application/json' }] });
  server.registerResource(
    'runtime-checkpoints',
    new ResourceTemplate('runtimectl://runtimes/{runtime_id}/checkpoints', { list: runtimeId === undefined ? undefined : listOwnLog }),
    { title: "A runtime's checkpoints", description: "The runtime's checkpoint log, newest first (id, name, when, parent), as JSON.", mimeType: 'application/json' },
    (uri, variables) =>
      readingResource(uri, async () => {
        const log = await client.listCheckpoints(uriVariable(variables, 'runtime_id'));
        return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(log) }] };
      }),
  );
}
