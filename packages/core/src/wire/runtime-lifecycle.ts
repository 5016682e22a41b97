import { z } from 'zod';
import {
  JsonValueSchema,
  MetadataSchema,
  NewRuntimeIdSchema,
  PartyIdSchema,
  PageLimitSchema,
  CursorSchema,
  RuntimeIdSchema,
  RuntimeRecordSchema,
  RuntimeStatusSchema,
  SessionStateSchema,
} from './common';
import { RetentionSettingsSchema } from './retention-settings';

const EpochMsSchema = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
/** 100 years: a longer lifetime is no TTL, and open time plus one near 2^53 would not be counted exactly. */
export const MAX_LIFETIME_MS = 100 * 365.25 * 24 * 3600 * 1000;
/**
 * The shortest idle pause (and the shortest interval of the daemon's policy passes, which do the
 * pausing): the daemon's `runtimes.idle_pause_after_ms` and the CLI's `--idle-pause-after` take the same.
 */
export const MIN_IDLE_PAUSE_AFTER_MS = 1_000;
/** Idle auto-pause: paused after this long without an operation; 0: never (off for this runtime); null: the daemon's. */
const IdlePauseAfterMsSchema = z
  .number()
  .int()
  .min(0)
  .max(Number.MAX_SAFE_INTEGER)
  .refine((ms) => ms === 0 || ms >= MIN_IDLE_PAUSE_AFTER_MS, `0 (off) or at least ${MIN_IDLE_PAUSE_AFTER_MS} ms`)
  .nullable();
/** Whether an operation on it while paused resumes it first; null: the daemon's. */
const AutoResumeSchema = z.boolean().nullable();

/**
 * A provider id as a request names it: every id a daemon can configure (`[providers.<id>]`, which
 * allows `_` because environment variable names carry the id) and the hyphenated ids accepted so far.
 */
export const ProviderIdSchema = z.string().regex(/^[a-z][a-z0-9_-]{0,63}$/, 'a provider id such as "local" or "e2b"');

export const RuntimeOpenRequestSchema = z.strictObject({
  runtime_id: NewRuntimeIdSchema.optional(),
  conversation_id: PartyIdSchema,
  sender_id: PartyIdSchema,
  provider: ProviderIdSchema.optional(),
  provider_options: z.record(z.string(), JsonValueSchema).optional(),
  metadata: MetadataSchema.optional(),
  session_state: SessionStateSchema.optional(),
  /** The runtime's own snapshot retention over the daemon's. */
  retention: RetentionSettingsSchema.optional(),
  /** Verify checkout and resume from its checkpoints against their manifests (absent: the daemon's and provider's default). */
  verify: z.boolean().optional(),
  /** TTL: the daemon closes the runtime at this time (epoch ms)… */
  expires_at_ms: EpochMsSchema.optional(),
  /** …or this long after it is opened (with both, the earlier). */
  max_lifetime_ms: z.number().int().min(1).max(MAX_LIFETIME_MS).optional(),
  idle_pause_after_ms: IdlePauseAfterMsSchema.optional(),
  auto_resume: AutoResumeSchema.optional(),
});
export type RuntimeOpenRequest = z.infer<typeof RuntimeOpenRequestSchema>;

export const RuntimeOpenResultSchema = z.object({
  runtime: RuntimeRecordSchema,
  created: z.boolean(),
});
export type RuntimeOpenResult = z.infer<typeof RuntimeOpenResultSchema>;

export const RuntimeListQuerySchema = z.strictObject({
  status: RuntimeStatusSchema.optional(),
  limit: PageLimitSchema.optional(),
  cursor: CursorSchema.optional(),
});
export type RuntimeListQuery = z.infer<typeof RuntimeListQuerySchema>;

/**
 * **[ext]** A runtime as `GET /runtimes` lists it: the RuntimeRecord and where it sits, so a
 * caller can filter by provider and node and draw lineage trees without a request per runtime.
 */
export const RuntimeListItemSchema = RuntimeRecordSchema.extend({
  provider: z.string(),
  /** The runtime it was checked out or forked from; null for a root. */
  parent_runtime_id: z.string().nullable(),
  /** The checkpoint it was checked out from; null for a root. */
  forked_from_checkpoint_id: z.string().nullable(),
  /** The fleet node whose machine holds its backend (node-local providers); null when any node reaches it. */
  home_node_id: z.string().nullable(),
});
export type RuntimeListItem = z.infer<typeof RuntimeListItemSchema>;

export const RuntimeListResultSchema = z.object({
  runtimes: z.array(RuntimeListItemSchema),
  next_cursor: z.string().nullable(),
});
export type RuntimeListResult = z.infer<typeof RuntimeListResultSchema>;

export const RuntimeIdParamsSchema = z.strictObject({ runtime_id: RuntimeIdSchema });

export const RuntimeDetailSchema = z.object({
  runtime: RuntimeRecordSchema,
  provider: z.string(),
  head_checkpoint_id: z.string().nullable(),
  paused_checkpoint_id: z.string().nullable(),
  parent_runtime_id: z.string().nullable(),
  forked_from_checkpoint_id: z.string().nullable(),
  metadata: z.record(z.string(), JsonValueSchema),
  session_state: JsonValueSchema,
  last_error: z.string().nullable(),
  /** The runtime's own retention settings (fields absent: the daemon's apply). */
  retention: RetentionSettingsSchema,
  /** Its own restore verification; null: the daemon's and provider's default. */
  verify: z.boolean().nullable(),
  /** The name of the API key that opened it; null: opened without one (auth off). */
  opened_by_key: z.string().nullable(),
  /** When the daemon closes it (TTL); null: never. */
  expires_at_ms: z.number().int().nullable(),
  /** The runtime's own idle pause (0: off); null: the daemon's applies. */
  idle_pause_after_ms: z.number().int().nullable(),
  /** The runtime's own auto-resume; null: the daemon's applies. */
  auto_resume: z.boolean().nullable(),
  /** **[ext]** The fleet node whose machine holds its backend (node-local providers); null when any node reaches it. */
  home_node_id: z.string().nullable(),
});
export type RuntimeDetail = z.infer<typeof RuntimeDetailSchema>;

export const RuntimeUpdateRequestSchema = z.strictObject({
  runtime_id: RuntimeIdSchema,
  session_state: SessionStateSchema.optional(),
  metadata: MetadataSchema.optional(),
  /** Replaces the runtime's own retention settings (`{}`: the daemon's again). */
  retention: RetentionSettingsSchema.optional(),
  /** Its own restore verification, or null for the default again. */
  verify: z.boolean().nullable().optional(),
  /** A new TTL (epoch ms), or null for none. */
  expires_at_ms: EpochMsSchema.nullable().optional(),
  /** The runtime's own idle pause (0: off), or null for the daemon's again. */
  idle_pause_after_ms: IdlePauseAfterMsSchema.optional(),
  /** The runtime's own auto-resume, or null for the daemon's again. */
  auto_resume: AutoResumeSchema.optional(),
});
export type RuntimeUpdateRequest = z.infer<typeof RuntimeUpdateRequestSchema>;

export const RuntimeUpdateResultSchema = z.object({ runtime: RuntimeRecordSchema });
export type RuntimeUpdateResult = z.infer<typeof RuntimeUpdateResultSchema>;

export const RuntimeCloseRequestSchema = z.strictObject({
  runtime_id: RuntimeIdSchema,
  cascade: z.boolean().optional(),
  keep_snapshots: z.boolean().optional(),
});
export type RuntimeCloseRequest = z.infer<typeof RuntimeCloseRequestSchema>;

export const RuntimeCloseResultSchema = z.object({
  runtime: RuntimeRecordSchema,
  released_backend: z.boolean(),
  deleted_snapshot_ids: z.array(z.string()),
  closed_runtime_ids: z.array(z.string()),
});
export type RuntimeCloseResult = z.infer<typeof RuntimeCloseResultSchema>;
