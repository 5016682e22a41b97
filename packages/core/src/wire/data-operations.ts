import { z } from 'zod';
import type { PathKind } from '@runtimectl/provider';
import { Base64Schema, CheckpointIdSchema, PathSchema, RuntimeIdSchema } from './common';
import { ExecCommandSchema, ExecEnvSchema, ExecShellSchema } from './exec-input-limits';

export const RuntimeExecRequestSchema = z.strictObject({
  runtime_id: RuntimeIdSchema,
  command: ExecCommandSchema,
  cwd: PathSchema.optional(),
  timeout_ms: z.number().int().min(1).max(24 * 60 * 60 * 1000).optional(),
  shell: ExecShellSchema.optional(),
  env: ExecEnvSchema.optional(),
});
export type RuntimeExecRequest = z.infer<typeof RuntimeExecRequestSchema>;

export const RuntimeExecResultSchema = z.object({
  stdout_base64: z.string(),
  stderr_base64: z.string(),
  /** null when the process was killed by a signal (e.g. on timeout). */
  exit_code: z.number().int().nullable(),
  timed_out: z.boolean(),
  /** true when stdout or stderr exceeded the output cap and was cut. */
  truncated: z.boolean(),
  duration_ms: z.number(),
});
export type RuntimeExecResult = z.infer<typeof RuntimeExecResultSchema>;

export const RuntimePathRequestSchema = z.strictObject({ runtime_id: RuntimeIdSchema, path: PathSchema });
export type RuntimePathRequest = z.infer<typeof RuntimePathRequestSchema>;

/**
 * read-file: a runtime's live file (`runtime_id`), or a checkpoint's (`checkpoint_id`: read from
 * its provider snapshot without restoring it, where the provider can). Exactly one of the two.
 */
export const RuntimeReadFileRequestSchema = z
  .strictObject({ runtime_id: RuntimeIdSchema.optional(), checkpoint_id: CheckpointIdSchema.optional(), path: PathSchema })
  .refine((request) => (request.runtime_id === undefined) !== (request.checkpoint_id === undefined), {
    message: 'give exactly one of runtime_id and checkpoint_id',
    path: ['runtime_id'],
  });
export type RuntimeReadFileRequest = z.infer<typeof RuntimeReadFileRequestSchema>;

export const RuntimeReadFileResultSchema = z.object({ content_base64: z.string() });
export type RuntimeReadFileResult = z.infer<typeof RuntimeReadFileResultSchema>;

export const RuntimeWriteFileRequestSchema = z.strictObject({
  runtime_id: RuntimeIdSchema,
  path: PathSchema,
  content_base64: Base64Schema,
});
export type RuntimeWriteFileRequest = z.infer<typeof RuntimeWriteFileRequestSchema>;

export const RuntimeWriteFileResultSchema = z.object({ path: z.string(), created: z.boolean() });
export type RuntimeWriteFileResult = z.infer<typeof RuntimeWriteFileResultSchema>;

export const PathKindSchema = z.enum(['file', 'directory', 'symlink', 'other']) satisfies z.ZodType<PathKind>;

export const RuntimeStatResultSchema = z.object({
  exists: z.boolean(),
  kind: PathKindSchema.nullable(),
  size_bytes: z.number().int().nullable(),
  modified_at_ms: z.number().int().nullable(),
});
export type RuntimeStatResult = z.infer<typeof RuntimeStatResultSchema>;

export const RuntimeMkdirResultSchema = z.object({ path: z.string() });
export type RuntimeMkdirResult = z.infer<typeof RuntimeMkdirResultSchema>;

const SearchLimitSchema = z.number().int().min(1).max(10_000);

export const GrepRequestSchema = z.strictObject({
  /** Literal text to find (not a regular expression), case-sensitive. */
  query: z.string().min(1).max(4096),
  base_dir: PathSchema.optional(),
  /** Glob over paths relative to base_dir, e.g. "**\/*.ts". */
  include: z.string().min(1).max(1024).optional(),
  mode: z.enum(['content', 'files_with_matches']).optional(),
});

export const RuntimeSearchRequestSchema = z
  .strictObject({
    runtime_id: RuntimeIdSchema,
    /** Glob over paths relative to base_dir (or the workspace root); matches files only. */
    glob: z.string().min(1).max(1024).optional(),
    base_dir: PathSchema.optional(),
    grep: GrepRequestSchema.optional(),
    limit: SearchLimitSchema.optional(),
  })
  .refine((value) => (value.glob === undefined) !== (value.grep === undefined), {
    message: 'give exactly one of glob or grep',
  })
  .refine((value) => value.grep === undefined || value.base_dir === undefined, {
    message: 'with grep, put base_dir inside grep',
  });
export type RuntimeSearchRequest = z.infer<typeof RuntimeSearchRequestSchema>;

export const GrepMatchSchema = z.object({ path: z.string(), line: z.number().int(), text: z.string() });
export type GrepMatch = z.infer<typeof GrepMatchSchema>;

export const RuntimeSearchResultSchema = z.union([
  z.object({ paths: z.array(z.string()), truncated: z.boolean() }),
  z.object({ matches: z.array(GrepMatchSchema), truncated: z.boolean() }),
]);
export type RuntimeSearchResult = z.infer<typeof RuntimeSearchResultSchema>;

const TempAffixSchema = z.string().max(64).regex(/^[A-Za-z0-9._-]*$/, 'letters, digits, ".", "_", "-"');

export const RuntimeTempPathRequestSchema = z.strictObject({
  runtime_id: RuntimeIdSchema,
  kind: z.enum(['file', 'directory']).optional(),
  prefix: TempAffixSchema.optional(),
  suffix: TempAffixSchema.optional(),
});
export type RuntimeTempPathRequest = z.infer<typeof RuntimeTempPathRequestSchema>;

export const RuntimeTempPathResultSchema = z.object({ path: z.string() });
export type RuntimeTempPathResult = z.infer<typeof RuntimeTempPathResultSchema>;

export const RuntimeExportRequestSchema = RuntimePathRequestSchema;
export type RuntimeExportRequest = RuntimePathRequest;
