import type { TrackedBackend } from '../backend/tracked-backend';
import type { ExportedFile } from '@runtimectl/provider';
import type {
  RuntimeExecRequest,
  RuntimeExecResult,
  RuntimeMkdirResult,
  RuntimePathRequest,
  RuntimeReadFileResult,
  RuntimeSearchRequest,
  RuntimeSearchResult,
  RuntimeStatResult,
  RuntimeTempPathRequest,
  RuntimeTempPathResult,
  RuntimeWriteFileRequest,
  RuntimeWriteFileResult,
} from '../wire/data-operations';
import { recordDirty, type Mutation } from './clean-state';
import { withAutoResume } from '../idle/auto-resume';
import { loadServedSession, withLiveBackend, withRuntimeLock } from './runtime-access';
import type { OperationScope, ServiceContext } from './service-context';

const DEFAULT_SEARCH_LIMIT = 1000;

/**
 * A data operation: shares the runtime's lease, needs an idle runtime with a live backend (a
 * paused one that auto-resumes is resumed first, under its own exclusive lease). One that
 * `mutates` the workspace (write_bytes, create_dir_all, temp_path: its files; exec: processes
 * too) records the runtime dirty in the store before it reaches the provider; stat, reads,
 * search and export do not.
 */
export async function onBackend<T>(
  ctx: ServiceContext,
  runtimeId: string,
  scope: OperationScope,
  fn: (backend: TrackedBackend) => Promise<T>,
  mutates?: Mutation,
): Promise<T> {
  return withAutoResume(ctx, runtimeId, scope, () =>
    withRuntimeLock(ctx, runtimeId, 'shared', async (ctx) => {
      const session = await loadServedSession(ctx, runtimeId);
      return withLiveBackend(ctx, session, scope, async (backend, binding) => {
        if (mutates) await recordDirty(ctx, session, binding, mutates);
        return fn(backend);
      });
    }),
  );
}

const CHANGES_FILES: Mutation = 'files';
const MAY_START_PROCESSES: Mutation = 'processes';

const toBase64 = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');

export function execRuntime(ctx: ServiceContext, request: RuntimeExecRequest, scope: OperationScope): Promise<RuntimeExecResult> {
  return onBackend(ctx, request.runtime_id, scope, async (backend) => {
    const startedAt = performance.now();
    const result = await backend.exec({
      command: request.command,
      timeoutMs: request.timeout_ms ?? ctx.exec.defaultTimeoutMs,
      maxOutputBytes: ctx.exec.maxOutputBytes,
      ...(request.shell !== undefined ? { shell: request.shell } : {}),
      ...(request.cwd !== undefined ? { cwd: request.cwd } : {}),
      ...(request.env !== undefined ? { env: request.env } : {}),
    });
    return {
      stdout_base64: toBase64(result.stdout),
      stderr_base64: toBase64(result.stderr),
      exit_code: result.exitCode,
      timed_out: result.timedOut,
      truncated: result.truncated,
      duration_ms: Math.round((performance.now() - startedAt) * 1000) / 1000,
    };
  }, MAY_START_PROCESSES);
}

export function readRuntimeFile(ctx: ServiceContext, request: RuntimePathRequest, scope: OperationScope): Promise<RuntimeReadFileResult> {
  return onBackend(ctx, request.runtime_id, scope, async (backend) => ({
    content_base64: toBase64(await backend.readBytes(request.path, { maxBytes: ctx.files.readMaxBytes })),
  }));
}

export function writeRuntimeFile(
  ctx: ServiceContext,
  request: RuntimeWriteFileRequest,
  scope: OperationScope,
): Promise<RuntimeWriteFileResult> {
  // The wire schema has already checked the base64.
  const content = Buffer.from(request.content_base64, 'base64');
  return onBackend(ctx, request.runtime_id, scope, (backend) => backend.writeBytes(request.path, content), CHANGES_FILES);
}

export function statRuntimePath(ctx: ServiceContext, request: RuntimePathRequest, scope: OperationScope): Promise<RuntimeStatResult> {
  return onBackend(ctx, request.runtime_id, scope, async (backend) => {
    const stat = await backend.stat(request.path);
    // Whole milliseconds on the wire; a file system's mtime (Node's mtimeMs) has a fraction.
    return { exists: stat.exists, kind: stat.kind, size_bytes: stat.sizeBytes, modified_at_ms: stat.modifiedAtMs === null ? null : Math.floor(stat.modifiedAtMs) };
  });
}

export function makeRuntimeDirectory(ctx: ServiceContext, request: RuntimePathRequest, scope: OperationScope): Promise<RuntimeMkdirResult> {
  return onBackend(ctx, request.runtime_id, scope, async (backend) => {
    await backend.createDirAll(request.path);
    return { path: request.path };
  }, CHANGES_FILES);
}

/** Creates a fresh scratch file or directory in the workspace (marks the backend dirty). */
export function makeRuntimeTempPath(
  ctx: ServiceContext,
  request: RuntimeTempPathRequest,
  scope: OperationScope,
): Promise<RuntimeTempPathResult> {
  return onBackend(ctx, request.runtime_id, scope, async (backend) => ({
    path: await backend.tempPath({
      kind: request.kind ?? 'file',
      ...(request.prefix !== undefined ? { prefix: request.prefix } : {}),
      ...(request.suffix !== undefined ? { suffix: request.suffix } : {}),
    }),
  }), CHANGES_FILES);
}

export function searchRuntime(ctx: ServiceContext, request: RuntimeSearchRequest, scope: OperationScope): Promise<RuntimeSearchResult> {
  const limit = request.limit ?? DEFAULT_SEARCH_LIMIT;
  return onBackend(ctx, request.runtime_id, scope, async (backend) => {
    const result =
      request.glob !== undefined
        ? await backend.glob({ pattern: request.glob, limit, ...(request.base_dir ? { baseDir: request.base_dir } : {}) })
        : await backend.grep({
            query: request.grep!.query,
            mode: request.grep!.mode ?? 'content',
            limit,
            ...(request.grep!.base_dir ? { baseDir: request.grep!.base_dir } : {}),
            ...(request.grep!.include ? { include: request.grep!.include } : {}),
            // grep reads no more of a file than read-file may: bigger files are passed over.
            maxFileBytes: ctx.files.readMaxBytes,
          });
    return result.kind === 'paths'
      ? { paths: result.paths, truncated: result.truncated }
      : { matches: result.matches, truncated: result.truncated };
  });
}

/** Streams a file out; the lock covers opening it, not the transfer. */
export function exportRuntimeFile(ctx: ServiceContext, request: RuntimePathRequest, scope: OperationScope): Promise<ExportedFile> {
  return onBackend(ctx, request.runtime_id, scope, (backend) => backend.export(request.path));
}
