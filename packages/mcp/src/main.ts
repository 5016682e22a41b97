#!/usr/bin/env node
import { serveStdio } from './serve-stdio';

// runtimectl-mcp: the MCP server over stdio, for MCP clients to launch. Configured by the
// environment as the CLI is: RUNTIMECTL_URL, RUNTIMECTL_TOKEN, and RUNTIMECTL_RUNTIME.
const env = process.env;
serveStdio({
  url: env.RUNTIMECTL_URL ?? 'http://127.0.0.1:7333',
  ...(env.RUNTIMECTL_TOKEN ? { token: env.RUNTIMECTL_TOKEN } : {}),
  ...(env.RUNTIMECTL_RUNTIME ? { runtimeId: env.RUNTIMECTL_RUNTIME } : {}),
}).catch((error: unknown) => {
  process.stderr.write(`runtimectl-mcp: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
