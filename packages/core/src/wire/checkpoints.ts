import { z } from 'zod';
import type { SkippedPath } from '@runtimectl/provider';
import {
  CheckpointIdSchema,
  CursorSchema,
  JsonValueSchema,
  MetadataSchema,
  NameSchema,
  PageLimitSchema,
  PartyIdSchema,
  RuntimeIdSchema,
  RuntimeRecordSchema,
} from './common';

const EchoedMetadataSchema = z.record(z.string(), JsonValueSchema);

export const RuntimeCheckpointRequestSchema = z.strictObject({
  runtime_id: RuntimeIdSchema,
  name: NameSchema.optional(),
  metadata: MetadataSchema.optional(),
});
export type RuntimeCheckpointRequest = z.infer<typeof RuntimeCheckpointRequestSchema>;

/** The most special files a checkpoint result lists (`skipped_paths`); a workspace with more lists the first. */
export const MAX_SKIPPED_PATHS = 100;

/** A special file (FIFO, socket, device) a snapshot did not hold, by its workspace path. */
export const SkippedPathSchema = z.object({ path: z.string(), kind: z.enum(['fifo', 'socket', 'device']) }) satisfies z.ZodType<SkippedPath>;

/**
 * How many processes the runtime's commands had running (background jobs an exec left, commands
 * still running) when the checkpoint's snapshot was taken, as its provider counted them right
 * before it; absent when none ran (and when the provider cannot count: see the provider's
 * `backgroundProcesses`). A snapshot taken while they ran holds what they had written by then,
 * not what they write after it; the runtime stays dirty, so its next checkpoint snapshots again.
 */
export const BackgroundProcessesSchema = z.number().int().min(1);

export const RuntimeCheckpointResultSchema = z.object({
  checkpoint_id: z.string(),
  runtime: RuntimeRecordSchema,
  /** The runtime's previous head; for a checkout child's first checkpoint, the checkpoint it came from. */
  parent_checkpoint_id: z.string().nullable(),
  created_at_ms: z.number().int(),
  name: z.string().nullable(),
  metadata: EchoedMetadataSchema,
  /** true when no new provider snapshot was made (clean backend reused its last one). */
  reused_backend_snapshot: z.boolean(),
  /** The root hash of the checkpoint's content manifest (a Merkle tree); null when its provider produces none. */
  manifest_root: z.string().nullable(),
  /**
   * The special files (FIFOs, sockets, devices) the new snapshot does not hold, at most
   * MAX_SKIPPED_PATHS of them; absent when there are none (and when the snapshot was reused).
   */
  skipped_paths: z.array(SkippedPathSchema).max(MAX_SKIPPED_PATHS).optional(),
  /** See BackgroundProcessesSchema: present only when jobs were running as the snapshot was taken. */
  background_processes: BackgroundProcessesSchema.optional(),
});
export type RuntimeCheckpointResult = z.infer<typeof RuntimeCheckpointResultSchema>;

/** How many children one N-way checkout (or fork) makes. */
export const CheckoutCountSchema = z.number().int().min(1).max(100);

export const RuntimeCheckoutRequestSchema = z.strictObject({
  checkpoint_id: CheckpointIdSchema,
  conversation_id: PartyIdSchema.optional(),
  sender_id: PartyIdSchema.optional(),
  metadata: MetadataSchema.optional(),
  /** N-way checkout: this many children, answered one result each (`RuntimeCheckoutChildrenResult`). Absent: one child, the single shape. */
  count: CheckoutCountSchema.optional(),
});
export type RuntimeCheckoutRequest = z.infer<typeof RuntimeCheckoutRequestSchema>;

export const RuntimeCheckoutResultSchema = z.object({
  checkpoint_id: z.string(),
  source_runtime_id: z.string(),
  runtime: RuntimeRecordSchema,
});
export type RuntimeCheckoutResult = z.infer<typeof RuntimeCheckoutResultSchema>;

export const RuntimePauseRequestSchema = RuntimeCheckpointRequestSchema;
export type RuntimePauseRequest = RuntimeCheckpointRequest;

export const RuntimePauseResultSchema = z.object({
  runtime: RuntimeRecordSchema,
  checkpoint_id: z.string(),
  parent_checkpoint_id: z.string().nullable(),
  created_at_ms: z.number().int(),
  name: z.string().nullable(),
  metadata: EchoedMetadataSchema,
  /** As checkpoint's: true when the pause reused the runtime's clean snapshot (no provider snapshot was taken). */
  reused_backend_snapshot: z.boolean(),
  /**
   * See BackgroundProcessesSchema: jobs were running as the pause snapshot was taken. A provider
   * whose snapshots hold files only (fs) ends them with the sandbox, so what they wrote after the
   * snapshot is lost; one whose snapshots hold processes (E2B) resumes them.
   */
  background_processes: BackgroundProcessesSchema.optional(),
});
export type RuntimePauseResult = z.infer<typeof RuntimePauseResultSchema>;

export const RuntimeResumeRequestSchema = z.strictObject({
  runtime_id: RuntimeIdSchema,
  metadata: MetadataSchema.optional(),
});
export type RuntimeResumeRequest = z.infer<typeof RuntimeResumeRequestSchema>;

export const RuntimeResumeResultSchema = z.object({ runtime: RuntimeRecordSchema });
export type RuntimeResumeResult = z.infer<typeof RuntimeResumeResultSchema>;

export const RuntimeCheckpointSnapshotDeleteRequestSchema = z.strictObject({ checkpoint_id: CheckpointIdSchema });
export type RuntimeCheckpointSnapshotDeleteRequest = z.infer<typeof RuntimeCheckpointSnapshotDeleteRequestSchema>;

export const RuntimeCheckpointSnapshotDeleteResultSchema = z.object({
  checkpoint_id: z.string(),
  runtime_id: z.string(),
  provider: z.string().nullable(),
  provider_snapshot_id: z.string().nullable(),
  provider_snapshot_names: z.array(z.string()),
  deleted_provider_snapshot: z.boolean(),
  cleared_checkpoint_ids: z.array(z.string()),
  deleted_at_ms: z.number().int(),
});
export type RuntimeCheckpointSnapshotDeleteResult = z.infer<typeof RuntimeCheckpointSnapshotDeleteResultSchema>;

export const CheckpointKindSchema = z.enum(['checkpoint', 'pause']);
export type CheckpointKind = z.infer<typeof CheckpointKindSchema>;

export const CheckpointViewSchema = z.object({
  checkpoint_id: z.string(),
  runtime_id: z.string(),
  parent_checkpoint_id: z.string().nullable(),
  kind: CheckpointKindSchema,
  name: z.string().nullable(),
  metadata: EchoedMetadataSchema,
  created_at_ms: z.number().int(),
  provider: z.string().nullable(),
  has_provider_snapshot: z.boolean(),
  /** Pinned: no retention policy deletes its snapshot. */
  pinned: z.boolean(),
  /** When its snapshot last started a backend (checkout, resume); null: never. */
  last_used_at_ms: z.number().int().nullable(),
  /** The root hash of the checkpoint's content manifest (a Merkle tree); null when it has none. */
  manifest_root: z.string().nullable(),
});
export type CheckpointView = z.infer<typeof CheckpointViewSchema>;

export const CheckpointIdParamsSchema = z.strictObject({ checkpoint_id: CheckpointIdSchema });

export const CheckpointListQuerySchema = z.strictObject({
  limit: PageLimitSchema.optional(),
  cursor: CursorSchema.optional(),
});
export type CheckpointListQuery = z.infer<typeof CheckpointListQuerySchema>;

export const CheckpointListResultSchema = z.object({
  checkpoints: z.array(CheckpointViewSchema),
  next_cursor: z.string().nullable(),
});
export type CheckpointListResult = z.infer<typeof CheckpointListResultSchema>;

/** Compatibility shape: fork is checkpoint → checkout (no HTTP route). */
export const SessionForkRequestSchema = z.strictObject({
  parent_session_id: RuntimeIdSchema,
  conversation_id: PartyIdSchema.optional(),
  sender_id: PartyIdSchema.optional(),
  snapshot_name: NameSchema.optional(),
});
export type SessionForkRequest = z.infer<typeof SessionForkRequestSchema>;

export const SessionForkResultSchema = z.object({
  parent: RuntimeRecordSchema,
  child: RuntimeRecordSchema,
  checkpoint_id: z.string(),
  reused_backend_snapshot: z.boolean(),
});
export type SessionForkResult = z.infer<typeof SessionForkResultSchema>;
