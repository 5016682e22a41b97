import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RuntimectlClient } from '@runtimectl/client';
import {
  CheckpointIdSchema,
  CheckpointListQuerySchema,
  CheckpointPinRequestSchema,
  RuntimeCheckoutRequestSchema,
  RuntimeCheckpointRequestSchema,
  RuntimeForkRequestSchema,
  RuntimeIdSchema,
} from '@runtimectl/core';
import { z } from 'zod';
import type { WithProgress } from '../progress';
import { answer, asToolResult, refusal } from '../tool-results';

const MAKES_RUNTIMES = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false } as const;

/** `checkout ×3`, `fork ×1`: the label of a progress notification names how many runtimes are being made. */
const making = (operation: string, count: number | undefined) => `${operation} ×${count ?? 1}`;

/** checkpoint, log, diff, checkout and fork (these two with progress: they make runtimes), pin_checkpoint. */
export function registerCheckpointTools(server: McpServer, client: RuntimectlClient, withProgress: WithProgress): void {
  server.registerTool(
    'checkpoint',
    {
      title: 'Checkpoint',
      description: 'Records the runtime as it is now (files; named if you give a name) and returns its checkpoint_id: a point to diff against or roll back to.',
      inputSchema: RuntimeCheckpointRequestSchema.pick({ runtime_id: true, name: true }),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    (input) => asToolResult(async () => answer(await client.checkpoint(input))),
  );
  server.registerTool(
    'log',
    {
      title: 'Checkpoint log',
      description: "The runtime's checkpoints, newest first (id, name, when, parent).",
      inputSchema: z.strictObject({ runtime_id: RuntimeIdSchema, limit: CheckpointListQuerySchema.shape.limit }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ runtime_id, limit }) => asToolResult(async () => answer(await client.listCheckpoints(runtime_id, limit === undefined ? {} : { limit }))),
  );
  server.registerTool(
    'diff',
    {
      title: 'Diff',
      description: 'What changed from a checkpoint to another checkpoint (to_checkpoint_id) or to a runtime as it is now (to_runtime_id): paths added, modified, removed, with a summary.',
      inputSchema: z.strictObject({ from_checkpoint_id: CheckpointIdSchema, to_checkpoint_id: CheckpointIdSchema.optional(), to_runtime_id: RuntimeIdSchema.optional() }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ from_checkpoint_id, to_checkpoint_id, to_runtime_id }) =>
      asToolResult(async () => {
        if ((to_checkpoint_id === undefined) === (to_runtime_id === undefined)) return refusal('give exactly one of to_checkpoint_id and to_runtime_id');
        const target = to_checkpoint_id !== undefined ? { to_checkpoint_id } : { to_runtime_id: to_runtime_id! };
        return answer(await client.diff({ from_checkpoint_id, ...target }));
      }),
  );
  server.registerTool(
    'checkout',
    {
      title: 'Check out a checkpoint',
      description: 'A new runtime whose files are the checkpoint\'s: roll back by continuing there. With count, that many independent runtimes.',
      inputSchema: RuntimeCheckoutRequestSchema.pick({ checkpoint_id: true, count: true }),
      annotations: MAKES_RUNTIMES,
    },
    (input, extra) => asToolResult(async () => answer(await withProgress(extra, making('checkout', input.count), () => client.checkout(input)))),
  );
  server.registerTool(
    'fork',
    {
      title: 'Fork',
      description: 'Checkpoints the runtime and checks that checkpoint out count times: independent branches to try alternatives side by side. Returns each new runtime_id.',
      inputSchema: RuntimeForkRequestSchema.pick({ runtime_id: true, count: true, name: true }),
      annotations: MAKES_RUNTIMES,
    },
    (input, extra) => asToolResult(async () => answer(await withProgress(extra, making('fork', input.count), () => client.fork(input)))),
  );
  server.registerTool(
    'pin_checkpoint',
    {
      title: 'Pin a checkpoint',
      description: "Keeps a checkpoint's snapshot from retention policies (pinned false unpins).",
      inputSchema: CheckpointPinRequestSchema,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (input) => asToolResult(async () => answer(await client.pinCheckpoint(input))),
  );
}
