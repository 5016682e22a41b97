import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RuntimectlClient } from '@runtimectl/client';
import { CheckpointIdSchema, GrepRequestSchema, PathSchema, RuntimeExecRequestSchema, RuntimeIdSchema, RuntimeSearchRequestSchema } from '@runtimectl/core';
import { z } from 'zod';
import { decodedFile } from '../file-content';
import type { WithProgress } from '../progress';
import { answer, asToolResult, refusal } from '../tool-results';

const READ_ONLY = { readOnlyHint: true, openWorldHint: false } as const;
const CHANGES_FILES = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false } as const;

const text = (base64: string) => Buffer.from(base64, 'base64').toString('utf8');

/** exec (with progress), read_file, write_file, find_files, search_text. */
export function registerWorkspaceTools(server: McpServer, client: RuntimectlClient, withProgress: WithProgress): void {
  server.registerTool(
    'exec',
    {
      title: 'Run a command',
      description: 'Runs a shell command in the runtime (cwd relative to its workspace). A non-zero exit is a result: read exit_code and stderr.',
      inputSchema: RuntimeExecRequestSchema.pick({ runtime_id: true, command: true, cwd: true, timeout_ms: true }),
      outputSchema: z.object({ stdout: z.string(), stderr: z.string(), exit_code: z.number().int().nullable(), timed_out: z.boolean(), truncated: z.boolean(), duration_ms: z.number() }),
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    },
    (input, extra) =>
      asToolResult(async () => {
        const result = await withProgress(extra, 'exec', () => client.exec(input));
        const output = { stdout: text(result.stdout_base64), stderr: text(result.stderr_base64), exit_code: result.exit_code, timed_out: result.timed_out, truncated: result.truncated, duration_ms: result.duration_ms };
        const status = result.timed_out ? 'timed out' : `exit ${result.exit_code}`;
        return answer(output, `${status}\n--- stdout\n${output.stdout}--- stderr\n${output.stderr}`);
      }),
  );
  server.registerTool(
    'read_file',
    {
      title: 'Read a file',
      description: "Reads a file of the runtime (runtime_id), or as a checkpoint holds it (checkpoint_id) without restoring it. Text comes back as it is; other bytes as base64.",
      inputSchema: z.strictObject({ runtime_id: RuntimeIdSchema.optional(), checkpoint_id: CheckpointIdSchema.optional(), path: PathSchema }),
      outputSchema: z.object({ path: z.string(), content: z.string(), encoding: z.enum(['utf-8', 'base64']) }),
      annotations: READ_ONLY,
    },
    ({ runtime_id, checkpoint_id, path }) =>
      asToolResult(async () => {
        if ((runtime_id === undefined) === (checkpoint_id === undefined)) return refusal('give runtime_id (the file now) or checkpoint_id (as a checkpoint holds it), one of them');
        const result = await client.readFile(runtime_id !== undefined ? { runtime_id, path } : { checkpoint_id: checkpoint_id!, path });
        const file = { path, ...decodedFile(Buffer.from(result.content_base64, 'base64')) };
        return answer(file, file.content);
      }),
  );
  server.registerTool(
    'write_file',
    {
      title: 'Write a file',
      description: 'Writes text to a file of the runtime, creating it and its directories, replacing what was there.',
      inputSchema: z.strictObject({ runtime_id: RuntimeIdSchema, path: PathSchema, content: z.string() }),
      annotations: CHANGES_FILES,
    },
    ({ runtime_id, path, content }) => asToolResult(async () => answer(await client.writeFileBytes(runtime_id, path, content))),
  );
  server.registerTool(
    'find_files',
    {
      title: 'Find files',
      description: 'Paths of the runtime matching a glob (`**/*.py`), under base_dir.',
      inputSchema: z.strictObject({ runtime_id: RuntimeIdSchema, glob: RuntimeSearchRequestSchema.shape.glob.unwrap(), base_dir: PathSchema.optional(), limit: RuntimeSearchRequestSchema.shape.limit }),
      annotations: READ_ONLY,
    },
    (input) => asToolResult(async () => answer(await client.search(input))),
  );
  server.registerTool(
    'search_text',
    {
      title: 'Search text',
      description: 'Lines of the runtime\'s files matching a query (path, line, text), under base_dir, in files matching include.',
      inputSchema: z.strictObject({ runtime_id: RuntimeIdSchema, query: GrepRequestSchema.shape.query, base_dir: PathSchema.optional(), include: GrepRequestSchema.shape.include, limit: RuntimeSearchRequestSchema.shape.limit }),
      annotations: READ_ONLY,
    },
    ({ runtime_id, limit, ...grep }) => asToolResult(async () => answer(await client.search({ runtime_id, ...(limit === undefined ? {} : { limit }), grep }))),
  );
}
