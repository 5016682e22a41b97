import { Readable } from 'node:stream';
import contentDisposition from 'content-disposition';
import {
  RuntimeExecRequestSchema,
  RuntimeExecResultSchema,
  RuntimeExportRequestSchema,
  RuntimeMkdirResultSchema,
  RuntimePathRequestSchema,
  RuntimeReadFileRequestSchema,
  RuntimeReadFileResultSchema,
  RuntimeSearchRequestSchema,
  RuntimeSearchResultSchema,
  RuntimeStatResultSchema,
  RuntimeWriteFileRequestSchema,
  RuntimeWriteFileResultSchema,
} from '@runtimectl/core';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { providerTimingOf } from '../provider-timing';
import '../route-config';
import { ERROR_RESPONSES, READ_OPERATION, runtimeOperation, type RouteGroupOptions } from './route-options';

const FileBytesSchema = z.string().describe('the file bytes');

/** `attachment; filename="<ASCII>"` plus `filename*=UTF-8''…` whenever the name is not plain ASCII. */
function attachmentHeader(fileName: string): string {
  return contentDisposition(fileName, { fallback: fileName.replace(/[^\x20-\x7e]/g, '_') });
}

/** Exec, files, search and export on a runtime's live backend. */
export const dataRoutes: FastifyPluginAsyncZod<RouteGroupOptions> = async (app, { service }) => {
  app.post(
    '/runtimes/exec',
    {
      config: runtimeOperation('exec'),
      schema: {
        summary: 'Run a command in the runtime',
        description:
          'A non-zero exit is still a 200. `timed_out` when it was killed at `timeout_ms` (exit_code null); `truncated` when stdout or stderr hit the output cap.',
        tags: ['data'],
        operationId: 'exec',
        body: RuntimeExecRequestSchema,
        response: { 200: RuntimeExecResultSchema, ...ERROR_RESPONSES },
      },
    },
    async (request) => service.exec(request.body, providerTimingOf(request)),
  );

  app.post(
    '/runtimes/read-file',
    {
      config: READ_OPERATION,
      schema: {
        summary: 'Read a file (base64)',
        description:
          'Paths are relative to the runtime\'s workspace root (or absolute where the provider allows). A missing file is `path_not_found`. With `checkpoint_id` instead of `runtime_id`: the file as that checkpoint\'s snapshot holds it, read without restoring it, where the provider can (fs, memory); otherwise `unsupported_backend`.',
        tags: ['data'],
        operationId: 'readFile',
        body: RuntimeReadFileRequestSchema,
        response: { 200: RuntimeReadFileResultSchema, ...ERROR_RESPONSES },
      },
    },
    async (request) => service.readFile(request.body, providerTimingOf(request)),
  );

  app.post(
    '/runtimes/write-file',
    {
      config: runtimeOperation('exec'),
      schema: {
        summary: 'Write a file (base64), creating parent directories',
        tags: ['data'],
        operationId: 'writeFile',
        body: RuntimeWriteFileRequestSchema,
        response: { 200: RuntimeWriteFileResultSchema, ...ERROR_RESPONSES },
      },
    },
    async (request) => service.writeFile(request.body, providerTimingOf(request)),
  );

  app.post(
    '/runtimes/stat',
    {
      config: READ_OPERATION,
      schema: {
        summary: 'Stat a path; a missing path answers exists: false, not an error',
        tags: ['data'],
        operationId: 'stat',
        body: RuntimePathRequestSchema,
        response: { 200: RuntimeStatResultSchema, ...ERROR_RESPONSES },
      },
    },
    async (request) => service.stat(request.body, providerTimingOf(request)),
  );

  app.post(
    '/runtimes/mkdir',
    {
      config: runtimeOperation('exec'),
      schema: {
        summary: 'Create a directory and its parents (create_dir_all)',
        tags: ['data'],
        operationId: 'mkdir',
        body: RuntimePathRequestSchema,
        response: { 200: RuntimeMkdirResultSchema, ...ERROR_RESPONSES },
      },
    },
    async (request) => service.mkdir(request.body, providerTimingOf(request)),
  );

  app.post(
    '/runtimes/search',
    {
      config: READ_OPERATION,
      schema: {
        summary: 'Find files by glob, or lines by literal text (grep)',
        description:
          'Either `{glob, base_dir?}` answering `{paths, truncated}`, or `{grep:{query, base_dir?, include?, mode?}}` answering `{matches, truncated}` (`mode:"files_with_matches"` answers `{paths, truncated}`). The grep query is literal text.',
        tags: ['data'],
        operationId: 'search',
        body: RuntimeSearchRequestSchema,
        response: { 200: RuntimeSearchResultSchema, ...ERROR_RESPONSES },
      },
    },
    async (request) => service.search(request.body, providerTimingOf(request)),
  );

  app.post(
    '/runtimes/export',
    {
      config: READ_OPERATION,
      schema: {
        summary: 'Download a file as bytes',
        description: 'Streams the file as `application/octet-stream` with `content-disposition: attachment; filename=…`.',
        tags: ['data'],
        operationId: 'exportFile',
        body: RuntimeExportRequestSchema,
        response: {
          200: { description: 'The file bytes', content: { 'application/octet-stream': { schema: FileBytesSchema } } },
          ...ERROR_RESPONSES,
        },
      },
    },
    async (request, reply) => {
      const file = await service.export(request.body, providerTimingOf(request));
      // The 200 schema documents the bytes for OpenAPI; a stream is sent as is, never serialised.
      return (reply as FastifyReply)
        .type('application/octet-stream')
        .header('content-disposition', attachmentHeader(file.fileName))
        .send(Readable.from(file.content, { objectMode: false }));
    },
  );
};
