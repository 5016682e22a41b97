import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_BIN } from './cli-process';
import { startRuntimed, type RuntimedProcess } from './runtimed-process';

let daemon: RuntimedProcess;
beforeAll(async () => {
  daemon = await startRuntimed();
});
afterAll(() => daemon?.stop());

describe('runtimectl mcp', () => {
  it('serves the MCP tools over stdio to the official SDK client, against the daemon at RUNTIMECTL_URL, and exits when the client closes', async () => {
    const client = new Client({ name: 'cli-mcp-test', version: '0.0.0' });
    const transport = new StdioClientTransport({ command: process.execPath, args: [CLI_BIN, 'mcp', '--runtime', 'rt-cli'], env: { PATH: process.env.PATH ?? '', RUNTIMECTL_URL: daemon.url } });
    await client.connect(transport);
    expect(client.getInstructions()).toContain('Your runtime is rt-cli');
    const opened = (await client.callTool({ name: 'open_runtime', arguments: { runtime_id: 'rt-cli', conversation_id: 'c', sender_id: 's' } })) as { structuredContent?: any };
    expect(opened.structuredContent).toMatchObject({ created: true, runtime: { runtime_id: 'rt-cli' } });
    const made = (await client.callTool({ name: 'checkpoint', arguments: { runtime_id: 'rt-cli', name: 'from mcp' } })) as { structuredContent?: any };
    expect(made.structuredContent.name).toBe('from mcp');
    const pid = transport.pid!;
    await client.close();
    for (let waited = 0; waited < 5_000; waited += 50) {
      try {
        process.kill(pid, 0);
      } catch {
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('runtimectl mcp did not exit after its client closed');
  });
});
