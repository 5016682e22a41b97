import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMcpHarness, type McpHarness } from './mcp-harness';

let harness: McpHarness;
const RUNTIME = 'rt-res';
const PNG_HEADER = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff, 0x00]);

beforeAll(async () => {
  harness = await startMcpHarness({ runtimeId: RUNTIME });
  await harness.api.open({ runtime_id: RUNTIME, conversation_id: 'c', sender_id: 's' });
});
afterAll(() => harness?.close());

const read = (uri: string) => harness.mcp.readResource({ uri });
const readError = (uri: string) => read(uri).then(() => expect.fail(`${uri} was read`), (error: unknown) => error as McpError);

describe('resources', () => {
  it("lists the agent's checkpoint log as its one resource, and templates for a runtime's files, a checkpoint's files and a checkpoint log", async () => {
    expect((await harness.mcp.listResources()).resources).toEqual([
      expect.objectContaining({ uri: `runtimectl://runtimes/${RUNTIME}/checkpoints`, mimeType: 'application/json' }),
    ]);
    const templates = (await harness.mcp.listResourceTemplates()).resourceTemplates.map((template) => template.uriTemplate);
    expect(templates.sort()).toEqual([
      'runtimectl://checkpoints/{checkpoint_id}/files/{+path}',
      'runtimectl://runtimes/{runtime_id}/checkpoints',
      'runtimectl://runtimes/{runtime_id}/files/{+path}',
    ]);
  });

  it("reads a runtime's UTF-8 file as text with its MIME type (a percent-encoded path decoded), and other bytes as a base64 blob", async () => {
    await harness.api.writeFileBytes(RUNTIME, 'docs/read me.md', '# héllo\n');
    await harness.api.writeFileBytes(RUNTIME, 'logo.png', PNG_HEADER);
    const uri = `runtimectl://runtimes/${RUNTIME}/files/docs/read%20me.md`;
    expect((await read(uri)).contents).toEqual([{ uri, mimeType: 'text/markdown', text: '# héllo\n' }]);
    const [image] = (await read(`runtimectl://runtimes/${RUNTIME}/files/logo.png`)).contents;
    expect(image).toMatchObject({ mimeType: 'image/png', blob: Buffer.from(PNG_HEADER).toString('base64') });
    expect(image).not.toHaveProperty('text');
  });

  it('reads a file as a checkpoint holds it while the runtime has moved on, and the checkpoint log as JSON', async () => {
    await harness.api.writeFileBytes(RUNTIME, 'state.txt', 'then\n');
    const { checkpoint_id } = await harness.api.checkpoint({ runtime_id: RUNTIME, name: 'then' });
    await harness.api.writeFileBytes(RUNTIME, 'state.txt', 'now\n');
    expect((await read(`runtimectl://checkpoints/${checkpoint_id}/files/state.txt`)).contents[0]).toMatchObject({ text: 'then\n', mimeType: 'text/plain' });
    expect((await read(`runtimectl://runtimes/${RUNTIME}/files/state.txt`)).contents[0]).toMatchObject({ text: 'now\n' });
    const [log] = (await read(`runtimectl://runtimes/${RUNTIME}/checkpoints`)).contents;
    expect(log!.mimeType).toBe('application/json');
    expect(JSON.parse((log as { text: string }).text)).toMatchObject({ checkpoints: [{ checkpoint_id, name: 'then' }], next_cursor: null });
  });

  it("a missing runtime's resource reads as resource-not-found (-32002) naming runtime_not_found, carrying only its URI", async () => {
    const uri = 'runtimectl://runtimes/rt-nowhere/files/secret.txt';
    const error = await readError(uri);
    expect(error).toBeInstanceOf(McpError);
    expect(error.code).toBe(-32002);
    expect(error.message).toBe('MCP error -32002: runtime_not_found: runtime rt-nowhere not found');
    expect(error.data).toEqual({ uri });
  });

  it('a missing file is -32002 path_not_found; a malformed runtime id or percent-encoding is invalid params naming invalid_request', async () => {
    expect(await readError(`runtimectl://runtimes/${RUNTIME}/files/nothing-here.txt`)).toMatchObject({ code: -32002, message: expect.stringMatching(/^MCP error -32002: path_not_found: /) });
    expect(await readError('runtimectl://runtimes/rt%20bad/checkpoints')).toMatchObject({ code: -32602, message: expect.stringMatching(/^MCP error -32602: invalid_request: invalid request: .*a runtime id/) });
    expect(await readError(`runtimectl://runtimes/${RUNTIME}/files/%E0%A4%A`)).toMatchObject({ code: -32602, message: 'MCP error -32602: invalid_request: path is not a percent-encoded string' });
  });
});
