export { createRuntimectlMcpServer, type RuntimectlMcpServerOptions } from './runtimectl-mcp-server';
export { serveStdio, type StdioOptions } from './serve-stdio';
