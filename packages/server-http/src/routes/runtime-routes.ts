import {
  CheckpointIdParamsSchema,
  CheckpointTreeQuerySchema,
  CheckpointTreeResultSchema,
  CheckpointListQuerySchema,
  CheckpointListResultSchema,
  CheckpointViewSchema,
  RuntimeCloseRequestSchema,
  RuntimeCloseResultSchema,
  RuntimeDetailSchema,
  RuntimeIdParamsSchema,
  RuntimeListQuerySchema,
  RuntimeListResultSchema,
  RuntimeOpenRequestSchema,
  RuntimeOpenResultSchema,
  RuntimeUpdateRequestSchema,
  RuntimeUpdateResultSchema,
} from '@runtimectl/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { providerTimingOf } from '../provider-timing';
import { operationOptionsOf } from './operation-options';
import '../route-config';
import { inScope } from '../auth/runtime-scope-hook';
import { ERROR_RESPONSES, READ_OPERATION, runtimeOperation, type RouteGroupOptions } from './route-options';

/** Open, list, read, update and close runtimes; read checkpoints. */
export const runtimeRoutes: FastifyPluginAsyncZod<RouteGroupOptions> = async (app, { service }) => {
  app.post(
    '/runtimes/open',
    {
      config: runtimeOperation('checkpoint'),
      schema: {
        summary: 'Open a runtime (or re-attach to an existing id opened with the same settings)',
        description:
          'Creates the backend on the named provider (default: the daemon\'s). An existing runtime_id with the same conversation_id and sender_id re-attaches (`created:false`, no backend change); a re-open whose conversation_id, sender_id, or given provider, provider_options, metadata or session_state differs from the runtime\'s is `runtime_exists` with details.fields naming them. metadata is `{}` when not given.',
        tags: ['runtimes'],
        operationId: 'openRuntime',
        body: RuntimeOpenRequestSchema,
        response: { 200: RuntimeOpenResultSchema, ...ERROR_RESPONSES },
      },
    },
    // The key is recorded with the runtime: a key reaching the runtimes it opened finds it by that.
    async (request) => service.open(request.body, { ...operationOptionsOf(request), ...(request.runtimectlKey ? { openedByKey: request.runtimectlKey.name } : {}) }),
  );

  app.get(
    '/runtimes',
    {
      config: READ_OPERATION,
      schema: {
        summary: 'List runtimes, ordered by runtime_id',
        description: 'Pages of at most `limit` (default 50, at most 500); pass `next_cursor` back as `cursor` for the next page. Cursors are opaque.',
        tags: ['runtimes'],
        operationId: 'listRuntimes',
        querystring: RuntimeListQuerySchema,
        response: { 200: RuntimeListResultSchema, ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const page = await service.list(request.query);
      return { ...page, runtimes: await inScope(request.runtimeScope, page.runtimes, (runtime) => runtime.runtime_id) };
    },
  );

  app.get(
    '/runtimes/:runtime_id',
    {
      config: READ_OPERATION,
      schema: {
        summary: 'One runtime with its lineage, metadata, session state and last error',
        description: 'Checkout children have ids like `<root>:checkout:<32hex>`; the `:` may be sent raw or URL-encoded.',
        tags: ['runtimes'],
        operationId: 'getRuntime',
        params: RuntimeIdParamsSchema,
        response: { 200: RuntimeDetailSchema, ...ERROR_RESPONSES },
      },
    },
    async (request) => service.get(request.params.runtime_id),
  );

  app.post(
    '/runtimes/update',
    {
      config: runtimeOperation('checkpoint'),
      schema: {
        summary: 'Replace a runtime\'s session_state and/or metadata (wholesale)',
        tags: ['runtimes'],
        operationId: 'updateRuntime',
        body: RuntimeUpdateRequestSchema,
        response: { 200: RuntimeUpdateResultSchema, ...ERROR_RESPONSES },
      },
    },
    async (request) => service.update(request.body, operationOptionsOf(request)),
  );

  app.post(
    '/runtimes/close',
    {
      config: runtimeOperation('checkpoint'),
      schema: {
        summary: 'Close a runtime: release its backend and delete the snapshots nothing keeps',
        description:
          '`cascade:true` closes checkout descendants first (`closed_runtime_ids`). `keep_snapshots:true` keeps its snapshots. Closing a closed runtime is a 200: with keep_snapshots omitted it keeps the earlier choice (retrying leftover snapshot cleanup unless snapshots were kept); an explicit keep_snapshots replaces it (`false` deletes kept snapshots, `true` keeps the rest).',
        tags: ['runtimes'],
        operationId: 'closeRuntime',
        body: RuntimeCloseRequestSchema,
        response: { 200: RuntimeCloseResultSchema, ...ERROR_RESPONSES },
      },
    },
    async (request) => service.close(request.body, providerTimingOf(request)),
  );

  app.get(
    '/runtimes/:runtime_id/checkpoints',
    {
      config: READ_OPERATION,
      schema: {
        summary: 'A runtime\'s checkpoints, newest first',
        tags: ['checkpoints'],
        operationId: 'listCheckpoints',
        params: RuntimeIdParamsSchema,
        querystring: CheckpointListQuerySchema,
        response: { 200: CheckpointListResultSchema, ...ERROR_RESPONSES },
      },
    },
    async (request) => service.listCheckpoints(request.params.runtime_id, request.query),
  );

  app.get(
    '/checkpoints/:checkpoint_id',
    {
      config: READ_OPERATION,
      schema: {
        summary: 'One checkpoint',
        tags: ['checkpoints'],
        operationId: 'getCheckpoint',
        params: CheckpointIdParamsSchema,
        response: { 200: CheckpointViewSchema, ...ERROR_RESPONSES },
      },
    },
    async (request) => service.getCheckpoint(request.params.checkpoint_id),
  );

  app.get(
    '/checkpoints/:checkpoint_id/tree',
    {
      config: READ_OPERATION,
      schema: {
        summary: "One directory of a checkpoint's files, from its content manifest, without restoring it",
        description:
          '`path` is a directory relative to the workspace root (absent: the root). Entries in name order with kind, mode, size and a symlink\'s target, paginated (`limit` ≤ 500, default 500, `next_cursor`). Read from the store: no provider call. A checkpoint without a manifest answers `manifest_unavailable`, a missing directory `path_not_found`, a file `invalid_request`. Read a file\'s content with `read-file` and `checkpoint_id`.',
        tags: ['checkpoints'],
        operationId: 'getCheckpointTree',
        params: CheckpointIdParamsSchema,
        querystring: CheckpointTreeQuerySchema,
        response: { 200: CheckpointTreeResultSchema, ...ERROR_RESPONSES },
      },
    },
    async (request) => service.checkpointTree(request.params.checkpoint_id, request.query),
  );
};
