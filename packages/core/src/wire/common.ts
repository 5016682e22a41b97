import { z } from 'zod';

/** Caller-chosen runtime ids: a letter or digit, then letters, digits, `.`, `_`, `-` (≤128). */
export const RUNTIME_ID_BASE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
/** Any runtime id, including generated checkout children `<root>:checkout:<32 hex>`. */
export const RUNTIME_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}(:checkout:[0-9a-f]{32})?$/;
export const CHECKPOINT_ID = /^rtcp_[0-9a-f]{32}$/;

export const RuntimeIdSchema = z
  .string()
  .regex(RUNTIME_ID, 'a runtime id: letters, digits, ".", "_", "-" (at most 128), optionally ":checkout:<32 hex>"');

/**
 * The API's actions on runtimes, each a `POST /api/v1/runtimes/<action>`. No runtime may take
 * one as its id: `GET /api/v1/runtimes/checkpoint` then always means the action (answered 405,
 * `Allow: POST`), never a runtime named `checkpoint`. A server test keeps the list complete.
 */
export const RUNTIME_ACTION_NAMES = [
  'open',
  'update',
  'close',
  'exec',
  'read-file',
  'write-file',
  'stat',
  'mkdir',
  'search',
  'export',
  'checkpoint',
  'checkout',
  'fork',
  'pause',
  'resume',
] as const;

/** Ids a caller may choose at open: never a checkout child's shape, nor the name of an action. */
export const NewRuntimeIdSchema = z
  .string()
  .regex(RUNTIME_ID_BASE, 'letters, digits, ".", "_", "-" (at most 128), starting with a letter or digit')
  .refine((id) => !(RUNTIME_ACTION_NAMES as readonly string[]).includes(id), {
    message: `names an action of the API (${RUNTIME_ACTION_NAMES.join(', ')}), so it cannot be a runtime id`,
  });

export const CheckpointIdSchema = z.string().regex(CHECKPOINT_ID, 'a checkpoint id: rtcp_ followed by 32 hex digits');

/** conversation_id / sender_id: opaque, non-empty, printable. */
export const PartyIdSchema = z
  .string()
  .min(1)
  .max(256)
  .regex(/^[^\u0000-\u001f\u007f]+$/, 'no control characters');

export const NameSchema = z
  .string()
  .min(1)
  .max(256)
  .regex(/^[^\u0000-\u001f\u007f]+$/, 'no control characters');

export const JsonValueSchema = z.json();
export type JsonValue = z.infer<typeof JsonValueSchema>;

const METADATA_MAX_BYTES = 64 * 1024;

/** Free-form caller metadata, echoed back; at most 64 KiB of JSON. */
export const MetadataSchema = z
  .record(z.string().min(1).max(128), JsonValueSchema)
  .refine((value) => Buffer.byteLength(JSON.stringify(value)) <= METADATA_MAX_BYTES, {
    message: `metadata must be at most ${METADATA_MAX_BYTES} bytes of JSON`,
  });
export type Metadata = z.infer<typeof MetadataSchema>;

export const SESSION_STATE_MAX_BYTES = 1024 * 1024;

/** The agent's opaque session state, restored with the sandbox; at most 1 MiB of JSON. */
export const SessionStateSchema = JsonValueSchema.refine(
  (value) => Buffer.byteLength(JSON.stringify(value)) <= SESSION_STATE_MAX_BYTES,
  { message: `session_state must be at most ${SESSION_STATE_MAX_BYTES} bytes of JSON` },
);

export const RuntimeStatusSchema = z.enum(['idle', 'running', 'paused', 'failed', 'closed']);
export type RuntimeStatus = z.infer<typeof RuntimeStatusSchema>;

/** The public view of a runtime (the seed's RuntimeRecord). Backend ids never appear here. */
export const RuntimeRecordSchema = z.object({
  runtime_id: z.string(),
  conversation_id: z.string(),
  sender_id: z.string(),
  status: RuntimeStatusSchema,
  created_at_ms: z.number().int(),
  updated_at_ms: z.number().int(),
});
export type RuntimeRecord = z.infer<typeof RuntimeRecordSchema>;

/** Workspace path: relative to the runtime's workspace root, or absolute where the provider allows it. */
export const PathSchema = z
  .string()
  .min(1)
  .max(4096)
  .refine((value) => !value.includes('\u0000'), { message: 'paths cannot contain NUL bytes' });

export const Base64Schema = z.base64('standard base64 with padding');

export const PageLimitSchema = z.coerce.number().int().min(1).max(500);
export const CursorSchema = z.string().min(1).max(512);

export const PageQuerySchema = z.strictObject({
  limit: PageLimitSchema.optional(),
  cursor: CursorSchema.optional(),
});
export type PageQuery = z.infer<typeof PageQuerySchema>;
