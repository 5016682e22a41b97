import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ProgressNotificationSchema, type ProgressNotification } from '@modelcontextprotocol/sdk/types.js';
import { createRuntimectlClient } from '@runtimectl/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRuntimed, type RuntimedProcess } from './runtimed-process';

// The MCP server (@runtimectl/mcp) in front of a real runtimed (fs provider, real shells), spoken
// to by the official MCP TypeScript SDK client: launched over stdio as MCP clients launch it
// (its built bin), and served by runtimed itself at POST /mcp (Streamable HTTP).
const SERVER = join(dirname(createRequire(import.meta.url).resolve('@runtimectl/mcp')), 'main.js');
const ADMIN = 'mcp-admin-token-0123456789abcdef';
const AGENT = 'mcp-agent-token-0123456789abcdef';
const sha256 = (token: string) => createHash('sha256').update(token).digest('hex');

let daemon: RuntimedProcess;
let configDir: string;
const clients: Client[] = [];

/**
 * Every progress notification `agent` receives from now on. A call's `onprogress` is not enough
 * over stdio: the SDK client runs notification handlers a microtask after reading them but settles
 * the answer at once, so notifications read together with the answer (one read, likely on a
 * loaded machine) reach a call already over and are dropped (modelcontextprotocol/typescript-sdk#2580).
 * A handler of the client's own sees them all; the call's `onprogress` still makes the SDK send a token.
 */
function progressOf(agent: Client): ProgressNotification['params'][] {
  const seen: ProgressNotification['params'][] = [];
  agent.setNotificationHandler(ProgressNotificationSchema, (notification) => {
    seen.push(notification.params);
  });
  return seen;
}

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

async function connect(token: string, over: 'stdio' | 'http' = 'stdio'): Promise<Client> {
  const client = new Client({ name: 'runtimectl-mcp-test', version: '0.0.0' });
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', RUNTIMECTL_URL: daemon.url, RUNTIMECTL_TOKEN: token, RUNTIMECTL_RUNTIME: 'rt-agent' };
  await client.connect(
    over === 'stdio'
      ? new StdioClientTransport({ command: process.execPath, args: [SERVER], env })
      : new StreamableHTTPClientTransport(new URL(`${daemon.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
  );
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
    // The same files as resources, and a long call's progress, over the same stdio server.
    expect((await agent.readResource({ uri: `runtimectl://checkpoints/${kept.checkpoint_id}/files/add.sh` })).contents).toMatchObject([{ text: 'echo $(($1 + $2))\n', mimeType: 'text/x-shellscript' }]);
    const progress = progressOf(agent);
    const tested = await agent.callTool({ name: 'exec', arguments: { runtime_id: passing[0], command: TEST } }, undefined, { onprogress: () => undefined });
    expect(tested).toMatchObject({ structuredContent: { exit_code: 0 } });
    await expect.poll(() => progress.at(-1)?.message).toMatch(/^exec: done in /);
    expect(progress[0]).toEqual({ progressToken: expect.anything(), progress: 0, message: 'exec: started' });

    // Another runtime does not exist for this key; nor may it open one.
    const hidden = await call(agent, 'read_file', { runtime_id: 'rt-other', path: 'secret.txt' });
    expect(hidden).toMatchObject({ isError: true, content: [{ type: 'text', text: 'runtime_not_found: runtime rt-other not found' }] });
    expect((await call(agent, 'exec', { runtime_id: 'rt-other', command: 'cat secret.txt' })).isError).toBe(true);
    expect((await call(agent, 'open_runtime', { conversation_id: 'c', sender_id: 'agent' })).content[0]!.text).toMatch(/^forbidden: /);
    await expect(agent.readResource({ uri: 'runtimectl://runtimes/rt-other/files/secret.txt' })).rejects.toMatchObject({ code: -32002, message: 'MCP error -32002: runtime_not_found: runtime rt-other not found' });
  });

  it('runtimed serves the same tools at POST /mcp (Streamable HTTP) under the caller\'s key: its scopes and runtime scope hold for each tool call, and no key is 401', async () => {
    const agent = await connect(AGENT, 'http');
    const made = await ok(agent, 'checkpoint', { runtime_id: 'rt-agent', name: 'over http' });
    expect(made.name).toBe('over http');
    expect(await call(agent, 'read_file', { runtime_id: 'rt-other', path: 'secret.txt' })).toMatchObject({ isError: true, content: [{ text: 'runtime_not_found: runtime rt-other not found' }] });
    expect((await call(agent, 'pin_checkpoint', { checkpoint_id: made.checkpoint_id })).isError).toBeFalsy();
    // A call asking for progress is answered as an SSE stream carrying its notifications first.
    const progress: Array<{ message?: string }> = [];
    const withProgress = await agent.callTool({ name: 'exec', arguments: { runtime_id: 'rt-agent', command: 'echo hi' } }, undefined, { onprogress: (notification) => progress.push(notification) });
    expect(withProgress).toMatchObject({ structuredContent: { stdout: 'hi\n', exit_code: 0 } });
    expect(progress[0]?.message).toBe('exec: started');
    const anonymous = await fetch(`${daemon.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' });
    expect(anonymous.status).toBe(401);
  });
});
