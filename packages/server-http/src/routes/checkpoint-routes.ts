import {
  CheckpointDiffRequestSchema,
  CheckpointDiffResultSchema,
  RuntimeCheckoutChildrenResultSchema,
  RuntimeCheckoutRequestSchema,
  RuntimeCheckoutResultSchema,
  RuntimeCheckpointRequestSchema,
  RuntimeCheckpointResultSchema,
  RuntimeCheckpointSnapshotDeleteRequestSchema,
  RuntimeCheckpointSnapshotDeleteResultSchema,
  RuntimeForkRequestSchema,
  RuntimeForkResultSchema,
  RuntimePauseRequestSchema,
  RuntimePauseResultSchema,
  RuntimeResumeRequestSchema,
  RuntimeResumeResultSchema,
} from '@runtimectl/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { providerTimingOf } from '../provider-timing';
import { operationOptionsOf } from './operation-options';
import '../route-config';
import { ERROR_RESPONSES, READ_OPERATION, runtimeOperation, type RouteGroupOptions } from './route-options';

/** Checkpoint, diff, delete a checkpoint's snapshot, check out (one or N ways), fork, pause and resume. */
export const checkpointRoutes: FastifyPluginAsyncZod<RouteGroupOptions> = async (app, { service }) => {
  app.post(
    '/checkpoints/diff',
    {
      config: READ_OPERATION,
      schema: {
        summary: "Compare a checkpoint's files with another checkpoint's or a runtime's live workspace",
        description:
          'Exactly one of `to_checkpoint_id` and `to_runtime_id`. Compares content manifests (Merkle trees: unchanged subtrees are skipped by hash, so a diff costs what changed); the live side is the runtime\'s manifest taken now, as a read. Entries (`added`, `removed`, `modified`, `mode_changed`, `type_changed`) sorted by path, paginated (`limit` ≤ 500, `next_cursor`); `summary` counts every page. A side without a manifest answers `manifest_unavailable`.',
        tags: ['checkpoints'],
        operationId: 'diffCheckpoints',
        body: CheckpointDiffRequestSchema,
        response: { 200: CheckpointDiffResultSchema, ...ERROR_RESPONSES },
      },
    },
    async (request) => service.diff(request.body, providerTimingOf(request)),
  );

  app.post(
    '/runtimes/checkpoint',
    {
      config: runtimeOperation('checkpoint'),
      schema: {
        summary: 'Capture an idle (or paused) runtime as a checkpoint',
        description:
          'A clean backend reuses its last provider snapshot (`reused_backend_snapshot:true`, no provider call). `parent_checkpoint_id` is the previous head. Checkpoint ids are time-ordered.',
        tags: ['checkpoints'],
        operationId: 'checkpoint',
        body: RuntimeCheckpointRequestSchema,
        response: { 200: RuntimeCheckpointResultSchema, ...ERROR_RESPONSES },
      },
    },
    async (request) => service.checkpoint(request.body, operationOptionsOf(request)),
  );

  app.post(
    '/runtimes/checkpoint/delete-snapshot',
    {
      config: runtimeOperation('admin'),
      schema: {
        summary: 'Delete the provider snapshot a checkpoint references',
        description:
          'Refused with `snapshot_in_use` while a paused runtime resumes from it or a live backend was made from it. Clears the snapshot from every checkpoint sharing it. Repeating it is a no-op.',
        tags: ['checkpoints'],
        operationId: 'deleteCheckpointSnapshot',
        body: RuntimeCheckpointSnapshotDeleteRequestSchema,
        response: { 200: RuntimeCheckpointSnapshotDeleteResultSchema, ...ERROR_RESPONSES },
      },
    },
    async (request) => service.deleteCheckpointSnapshot(request.body, providerTimingOf(request)),
  );

  app.post(
    '/runtimes/checkout',
    {
      config: runtimeOperation('checkpoint'),
      schema: {
        summary: 'Create a new runtime from a checkpoint, or `count` of them',
        description:
          'The child id is generated: `<root>:checkout:<32hex>`. `metadata` is merged over the source runtime\'s. A provider without snapshots answers `unsupported_backend` and creates nothing. ' +
          'With `count` (1-100) the answer is `{checkpoint_id, source_runtime_id, results}`, one result per child in order: `{runtime}` or `{error:{code,message,details}}`; the provider creates run in parallel (bounded by the daemon\'s `runtimes.checkout_parallelism`). ' +
          'The request fails as a whole only on what would refuse every child (validation, unknown checkpoint, busy source, deleted snapshot, no checkout support), or when every child failed (then with the first child\'s error, nothing created).',
        tags: ['checkpoints'],
        operationId: 'checkout',
        body: RuntimeCheckoutRequestSchema,
        response: { 200: RuntimeCheckoutResultSchema.or(RuntimeCheckoutChildrenResultSchema), ...ERROR_RESPONSES },
      },
    },
    async (request) => service.checkout(request.body, operationOptionsOf(request)),
  );

  app.post(
    '/runtimes/fork',
    {
      config: runtimeOperation('checkpoint'),
      schema: {
        summary: 'Checkpoint a runtime and check the checkpoint out `count` ways, in one call',
        description:
          'One checkpoint (`name`, `metadata` are its own; a clean runtime reuses its last snapshot), then an N-way checkout of it (`count` 1-100, default 1): `{checkpoint_id, source_runtime_id, reused_backend_snapshot, results}` with the rules of checkout with `count`.',
        tags: ['checkpoints'],
        operationId: 'fork',
        body: RuntimeForkRequestSchema,
        response: { 200: RuntimeForkResultSchema, ...ERROR_RESPONSES },
      },
    },
    async (request) => service.forkRuntime(request.body, operationOptionsOf(request)),
  );

  app.post(
    '/runtimes/pause',
    {
      config: runtimeOperation('checkpoint'),
      schema: {
        summary: 'Snapshot an idle runtime and release its live backend',
        tags: ['checkpoints'],
        operationId: 'pause',
        body: RuntimePauseRequestSchema,
        response: { 200: RuntimePauseResultSchema, ...ERROR_RESPONSES },
      },
    },
    async (request) => service.pause(request.body, operationOptionsOf(request)),
  );

  app.post(
    '/runtimes/resume',
    {
      config: runtimeOperation('checkpoint'),
      schema: {
        summary: 'Restore a paused runtime under the same runtime_id',
        description:
          '`metadata` is merged over the runtime\'s. A runtime that is not paused answers `runtime_not_paused` (a failed one `runtime_failed`). When the provider no longer has the pause snapshot: `checkpoint_snapshot_deleted`, and the runtime is recorded failed with why (close it).',
        tags: ['checkpoints'],
        operationId: 'resume',
        body: RuntimeResumeRequestSchema,
        response: { 200: RuntimeResumeResultSchema, ...ERROR_RESPONSES },
      },
    },
    async (request) => service.resume(request.body, operationOptionsOf(request)),
  );
};
