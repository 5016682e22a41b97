import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import type { RuntimectlClient } from '@runtimectl/client';
import type { RuntimeReadFileRequest } from '@runtimectl/core';
import { decodedFile, mimeTypeOf } from '../file-content';
import { readingResource, uriVariable } from './resource-reads';

/** A file's contents as a resource: text when it is UTF-8, else a base64 blob; its MIME type by extension. */
async function fileContents(client: RuntimectlClient, uri: URL, request: RuntimeReadFileRequest): Promise<ReadResourceResult> {
  const { content_base64 } = await client.readFile(request);
  const file = decodedFile(Buffer.from(content_base64, 'base64'));
  const mimeType = mimeTypeOf(request.path, file.encoding);
  return { contents: [file.encoding === 'utf-8' ? { uri: uri.href, mimeType, text: file.content } : { uri: uri.href, mimeType, blob: file.content }] };
}

/**
 * `runtimectl://runtimes/{runtime_id}/files/{+path}`: a file of a runtime as it is now;
 * `runtimectl://checkpoints/{checkpoint_id}/files/{+path}`: a file as a checkpoint holds it, read
 * from its snapshot without restoring it. Neither is listed: a workspace can hold any number of
 * files, and `find_files` is the way to look for them.
 */
export function registerFileResources(server: McpServer, client: RuntimectlClient): void {
  server.registerResource(
    'runtime-file',
    new ResourceTemplate('runtimectl://runtimes/{runtime_id}/files/{+path}', { list: undefined }),
    { title: 'A file of a runtime', description: 'A file of the runtime as it is now (path relative to its workspace, percent-encoded where a URI needs it).' },
    (uri, variables) => readingResource(uri, () => fileContents(client, uri, { runtime_id: uriVariable(variables, 'runtime_id'), path: uriVariable(variables, 'path') })),
  );
  server.registerResource(
    'checkpoint-file',
    new ResourceTemplate('runtimectl://checkpoints/{checkpoint_id}/files/{+path}', { list: undefined }),
    { title: 'A file of a checkpoint', description: 'A file as a checkpoint holds it, read from its snapshot without restoring it.' },
    (uri, variables) => readingResource(uri, () => fileContents(client, uri, { checkpoint_id: uriVariable(variables, 'checkpoint_id'), path: uriVariable(variables, 'path') })),
  );
}
