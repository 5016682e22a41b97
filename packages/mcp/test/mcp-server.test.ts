import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMcpHarness, type McpHarness } from './mcp-harness';

let harness: McpHarness;
let client: Client;

beforeAll(async () => {
  harness = await startMcpHarness({ runtimeId: 'rt-mcp' });
  client = harness.mcp;
});
afterAll(() => harness?.close());

type ToolAnswer = { isError?: boolean; structuredContent?: any; content: Array<{ type: string; text?: string }> };
const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as ToolAnswer;

describe('createRuntimectlMcpServer', () => {
  it("lists the agent's loop as tools, with the HTTP API's input schemas and read-only / destructive annotations, and names the runtime in its instructions", async () => {
    const { tools } = await client.listTools();
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    expect([...byName.keys()].sort()).toEqual(
      ['checkout', 'checkpoint', 'close_runtime', 'diff', 'exec', 'find_files', 'fork', 'log', 'open_runtime', 'pause', 'pin_checkpoint', 'read_file', 'resume', 'search_text', 'write_file'].sort(),
    );
    expect(byName.get('read_file')!.annotations).toMatchObject({ readOnlyHint: true });
    expect(byName.get('close_runtime')!.annotations).toMatchObject({ destructiveHint: true });
    expect(byName.get('exec')!.inputSchema).toMatchObject({ type: 'object', required: expect.arrayContaining(['runtime_id', 'command']) });
    expect(byName.get('checkpoint')!.inputSchema.properties!.runtime_id).toMatchObject({ type: 'string' });
    expect(client.getInstructions()).toContain('Your runtime is rt-mcp');
  });

  it('checkpoint, write, diff and checkout answer with structured content; read_file reads a checkpoint without restoring it', async () => {
    expect((await call('open_runtime', { runtime_id: 'rt-mcp', conversation_id: 'c', sender_id: 's' })).structuredContent).toMatchObject({ created: true });
    await call('write_file', { runtime_id: 'rt-mcp', path: 'notes.txt', content: 'one\n' });
    const first = (await call('checkpoint', { runtime_id: 'rt-mcp', name: 'one' })).structuredContent.checkpoint_id;
    await call('write_file', { runtime_id: 'rt-mcp', path: 'notes.txt', content: 'two\n' });
    const diff = await call('diff', { from_checkpoint_id: first, to_runtime_id: 'rt-mcp' });
    expect(diff.structuredContent.entries).toMatchObject([{ path: 'notes.txt', change: 'modified' }]);
    expect((await call('read_file', { checkpoint_id: first, path: 'notes.txt' })).structuredContent).toEqual({ path: 'notes.txt', content: 'one\n', encoding: 'utf-8' });
    const branch = (await call('checkout', { checkpoint_id: first })).structuredContent.runtime.runtime_id;
    expect((await call('read_file', { runtime_id: branch, path: 'notes.txt' })).content[0]!.text).toBe('one\n');
    expect((await call('log', { runtime_id: 'rt-mcp' })).structuredContent.checkpoints.map((checkpoint: { name: string }) => checkpoint.name)).toEqual(['one']);
  });

  it("the daemon's errors and requests it refuses come back as tool errors naming their code, for the model to read", async () => {
    expect(await call('exec', { runtime_id: 'rt-nowhere', command: 'true' })).toMatchObject({ isError: true, content: [{ text: 'runtime_not_found: runtime rt-nowhere not found' }] });
    expect(await call('read_file', { path: 'x' })).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/^invalid_request: give runtime_id/) }] });
    expect(await call('diff', { from_checkpoint_id: `rtcp_${'0'.repeat(32)}` })).toMatchObject({ isError: true, content: [{ text: 'invalid_request: give exactly one of to_checkpoint_id and to_runtime_id' }] });
  });
});
