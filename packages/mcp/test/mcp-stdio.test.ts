import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { createRuntimectlClient } from '@runtimectl/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRuntimed, type RuntimedProcess } from '../../../apps/daemon/test/runtimed-process';

// The built server (dist/main.js) launched as MCP clients launch it, spoken to by the official
// MCP TypeScript SDK client over stdio, in front of a real runtimed (fs provider, real shells).
const SERVER = join(import.meta.dirname, '..', 'dist', 'main.js');
const ADMIN = 'mcp-admin-token-0123456789abcdef';
const AGENT = 'mcp-agent-token-0123456789abcdef';
const sha256 = (token: string) => createHash('sha256').update(token).digest('hex');

let daemon: RuntimedProcess;
let configDir: string;
const clients: Client[] = [];

beforeAll(async () => {
  configDir = mkdtempSync(join(tmpdir(), 'runtimectl-mcp-'));
  const config = join(configDir, 'runtimed.toml');
  writeFileSync(config, `[http]\nport = 0\n[[http.auth.keys]]\nname = "agent"\ntoken_sha256 = "${sha256(AGENT)}"\nscopes = ["exec", "checkpoint"]\nruntimes = ["rt-agent"]\n`);
  daemon = await startRuntimed(['--log-level', 'warn', '--config', config, '--local-isolation', 'none'], { RUNTIMECTL_HTTP_AUTH_BEARER_TOKEN_ENV: 'ADMIN', ADMIN });
  const admin = createRuntimectlClient({ baseUrl: daemon.url, token: ADMIN });
  await admin.open({ runtime_id: 'rt-agent', conversation_id: 'c', sender_id: 'agent' });
  await admin.open({ runtime_id: 'rt-other', conversation_id: 'c', sender_id: 'someone-else' });
  await admin.writeFileBytes('rt-other', 'secret.txt', 'not yours');
});

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await daemon?.stop();
  rmSync(configDir, { recursive: true, force: true });
});

async function connect(token: string): Promise<Client> {
  const client = new Client({ name: 'runtimectl-mcp-test', version: '0.0.0' });
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', RUNTIMECTL_URL: daemon.url, RUNTIMECTL_TOKEN: token, RUNTIMECTL_RUNTIME: 'rt-agent' };
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [SERVER], env }));
  clients.push(client);
  return client;
}

type ToolAnswer = { isError?: boolean; structuredContent?: any; content: Array<{ type: string; text?: string }> };
const call = async (client: Client, name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as ToolAnswer;
const ok = async (client: Client, name: string, args: Record<string, unknown>) => {
  const result = await call(client, name, args);
  expect(result.isError, `${name}: ${result.content[0]?.text}`).toBeFalsy();
  return result.structuredContent;
};

describe('runtimectl-mcp over stdio', () => {
  it('lists the agent loop as tools, with the HTTP API\'s input schemas and read-only / destructive annotations, and names the agent\'s runtime in its instructions', async () => {
    const client = await connect(AGENT);
    const { tools } = await client.listTools();
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    expect([...byName.keys()].sort()).toEqual(
      ['checkout', 'checkpoint', 'close_runtime', 'diff', 'exec', 'find_files', 'fork', 'log', 'open_runtime', 'pause', 'pin_checkpoint', 'read_file', 'resume', 'search_text', 'write_file'].sort(),
    );
    expect(byName.get('read_file')!.annotations).toMatchObject({ readOnlyHint: true });
    expect(byName.get('close_runtime')!.annotations).toMatchObject({ destructiveHint: true });
    expect(byName.get('exec')!.inputSchema).toMatchObject({ type: 'object', required: expect.arrayContaining(['runtime_id', 'command']) });
    expect(client.getInstructions()).toContain('Your runtime is rt-agent');
  });

  it('a scripted agent with a one-runtime key writes code, checkpoints, sees a test fail, diffs, rolls back, forks three ways and keeps the branch whose test passes, and cannot touch another runtime', async () => {
    const agent = await connect(AGENT);
    const runtime = 'rt-agent';
    const TEST = '[ "$(sh add.sh 2 3)" = 5 ] && echo PASS || { echo "FAIL: got $(sh add.sh 2 3)" >&2; exit 1; }';
    await ok(agent, 'write_file', { runtime_id: runtime, path: 'add.sh', content: 'echo TODO\n' });
    const start = (await ok(agent, 'checkpoint', { runtime_id: runtime, name: 'skeleton' })).checkpoint_id;

    await ok(agent, 'write_file', { runtime_id: runtime, path: 'add.sh', content: 'echo $(($1 - $2))\n' });
    const failed = await ok(agent, 'exec', { runtime_id: runtime, command: TEST });
    expect(failed).toMatchObject({ exit_code: 1, stderr: 'FAIL: got -1\n' });
    const diff = await ok(agent, 'diff', { from_checkpoint_id: start, to_runtime_id: runtime });
    expect(diff.entries.map((entry: { path: string }) => entry.path)).toEqual(['add.sh']);

    const rolledBack = (await ok(agent, 'checkout', { checkpoint_id: start })).runtime.runtime_id;
    expect((await ok(agent, 'read_file', { runtime_id: rolledBack, path: 'add.sh' })).content).toBe('echo TODO\n');

    const attempts = ['echo $(($1 * $2))\n', 'echo $(($1 + $2))\n', 'echo $1$2\n'];
    const forked = await ok(agent, 'fork', { runtime_id: rolledBack, count: 3, name: 'alternatives' });
    const branches: string[] = forked.results.map((result: { runtime: { runtime_id: string } }) => result.runtime.runtime_id);
    const passing: string[] = [];
    for (const [index, branch] of branches.entries()) {
      await ok(agent, 'write_file', { runtime_id: branch, path: 'add.sh', content: attempts[index] });
      if ((await ok(agent, 'exec', { runtime_id: branch, command: TEST })).exit_code === 0) passing.push(branch);
    }
    expect(passing).toEqual([branches[1]]);
    for (const branch of branches) if (branch !== passing[0]) await ok(agent, 'close_runtime', { runtime_id: branch });
    const kept = await ok(agent, 'checkpoint', { runtime_id: passing[0], name: 'add works' });
    expect((await ok(agent, 'read_file', { checkpoint_id: kept.checkpoint_id, path: 'add.sh' })).content).toBe('echo $(($1 + $2))\n');
    expect((await ok(agent, 'log', { runtime_id: passing[0] })).checkpoints[0].name).toBe('add works');

    // Another runtime does not exist for this key; nor may it open one.
    const hidden = await call(agent, 'read_file', { runtime_id: 'rt-other', path: 'secret.txt' });
    expect(hidden).toMatchObject({ isError: true, content: [{ type: 'text', text: 'runtime_not_found: runtime rt-other not found' }] });
    expect((await call(agent, 'exec', { runtime_id: 'rt-other', command: 'cat secret.txt' })).isError).toBe(true);
    expect((await call(agent, 'open_runtime', { conversation_id: 'c', sender_id: 'agent' })).content[0]!.text).toMatch(/^forbidden: /);
  });

  it('a request the schema refuses is a tool error the model can read, and the daemon is not asked', async () => {
    const client = await connect(AGENT);
    const result = await call(client, 'diff', { from_checkpoint_id: `rtcp_${'0'.repeat(32)}` });
    expect(result).toMatchObject({ isError: true, content: [{ text: 'invalid_request: give exactly one of to_checkpoint_id and to_runtime_id' }] });
  });
});
