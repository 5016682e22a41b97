// The MCP server's own cost per tool call, for the bench's `mcp` section (bench/src/sections/
// mcp-tool-call.mjs): the same server as the runtimectl-mcp bin (createRuntimectlMcpServer over
// stdio), but its client answers `checkpoint` at once with the result in
// RUNTIMECTL_BENCH_CHECKPOINT (JSON), asking no daemon. A tools/call here against the same call
// to the real server is what the server's request to the daemon costs; against an MCP ping, what
// the SDK's tools/call handling and this package's tool code cost.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createRuntimectlMcpServer } from '../dist/index.js';

const answer = JSON.parse(process.env.RUNTIMECTL_BENCH_CHECKPOINT ?? '');
const client = { checkpoint: async () => answer };
await createRuntimectlMcpServer({ client }).connect(new StdioServerTransport());
