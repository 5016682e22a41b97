import { CheckpointPinRequestSchema, CheckpointPinResultSchema, RetentionPreviewQuerySchema, RetentionPreviewResultSchema } from '@runtimectl/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { operationOptionsOf } from './operation-options';
import '../route-config';
import { ERROR_RESPONSES, runtimeOperation, type RouteGroupOptions } from './route-options';

/** Snapshot retention: pin a checkpoint, and the dry run of a retention pass. */
export const retentionRoutes: FastifyPluginAsyncZod<RouteGroupOptions> = async (app, { service }) => {
  app.post(
    '/runtimes/checkpoint/pin',
    {
      config: runtimeOperation('checkpoint'),
      schema: {
        summary: 'Pin a checkpoint (no retention policy deletes its provider snapshot), or unpin it with `pinned: false`',
        description:
          'A control operation on the checkpoint\'s runtime: `session_busy` while another one is in flight there. Pins keep snapshots from retention policies only: delete-snapshot and close still delete them.',
        tags: ['checkpoints'],
        operationId: 'pinCheckpoint',
        body: CheckpointPinRequestSchema,
        response: { 200: CheckpointPinResultSchema, ...ERROR_RESPONSES },
      },
    },
    async (request) => service.pinCheckpoint(request.body, operationOptionsOf(request)),
  );

  app.get(
    '/retention/preview',
    {
      config: { runtimectl: { timing: true, scope: 'admin' } },
      schema: {
        summary: 'What a retention pass run now would delete, and why, per checkpoint with a provider snapshot',
        description:
          'Deletes nothing. Each checkpoint says `delete` and its `reasons`: `outside_keep_last` / `unused` for a deletion, or what keeps it (`pinned`, `paused`, `backend_source`, `clean`, `keep_last`, `recently_used`, `no_policy`, `shared`). Pages of at most `limit` (default 50, at most 500) by checkpoint id; `summary` counts every page.',
        tags: ['checkpoints'],
        operationId: 'retentionPreview',
        querystring: RetentionPreviewQuerySchema,
        response: { 200: RetentionPreviewResultSchema, ...ERROR_RESPONSES },
      },
    },
    async (request) => service.retentionPreview(request.query),
  );
};
