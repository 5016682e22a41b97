import { z } from 'zod';
import { CheckpointIdSchema, CursorSchema, PageLimitSchema, RuntimeIdSchema } from './common';
import { CheckpointViewSchema } from './checkpoints';
export { RetentionSettingsSchema, type RetentionSettings } from './retention-settings';

export const CheckpointPinRequestSchema = z.strictObject({
  checkpoint_id: CheckpointIdSchema,
  /** false unpins. Default true. */
  pinned: z.boolean().optional(),
});
export type CheckpointPinRequest = z.infer<typeof CheckpointPinRequestSchema>;

export const CheckpointPinResultSchema = z.object({ checkpoint: CheckpointViewSchema });
export type CheckpointPinResult = z.infer<typeof CheckpointPinResultSchema>;

export const RETENTION_KEEPERS = ['pinned', 'paused', 'backend_source', 'clean', 'keep_last', 'recently_used', 'no_policy', 'shared'] as const;
export const RETENTION_REASONS = ['outside_keep_last', 'unused'] as const;

export const RetentionPreviewQuerySchema = z.strictObject({
  runtime_id: RuntimeIdSchema.optional(),
  limit: PageLimitSchema.optional(),
  cursor: CursorSchema.optional(),
});
export type RetentionPreviewQuery = z.infer<typeof RetentionPreviewQuerySchema>;

export const RetentionVerdictSchema = z.object({
  checkpoint_id: z.string(),
  runtime_id: z.string(),
  provider: z.string(),
  /** Whether a pass run now deletes this checkpoint's provider snapshot (the record stays). */
  delete: z.boolean(),
  /** Why it is deleted (`outside_keep_last`, `unused`) or what keeps it. */
  reasons: z.array(z.enum([...RETENTION_KEEPERS, ...RETENTION_REASONS])),
});

export const RetentionPreviewResultSchema = z.object({
  /** Checkpoints whose provider snapshot still exists, by checkpoint id. */
  checkpoints: z.array(RetentionVerdictSchema),
  next_cursor: z.string().nullable(),
  /** Over every page: how many snapshots and checkpoints a pass run now would clear. */
  summary: z.object({ snapshots_to_delete: z.number().int(), checkpoints_to_clear: z.number().int() }),
});
export type RetentionPreviewResult = z.infer<typeof RetentionPreviewResultSchema>;
