import packageJson from '../package.json';

/** This package's version: what the server reports in its handshake. */
export const MCP_SERVER_VERSION: string = packageJson.version;
