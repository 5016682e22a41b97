import { z } from 'zod';
import { CheckpointIdSchema, CursorSchema, PageLimitSchema, RuntimeIdSchema } from './common';

export const DIFF_CHANGES = ['added', 'removed', 'modified', 'mode_changed', 'type_changed'] as const;
export const DiffChangeSchema = z.enum(DIFF_CHANGES);
export type DiffChange = z.infer<typeof DiffChangeSchema>;

/** Compares a checkpoint with another checkpoint, or with a runtime's live workspace: exactly one `to_*`. */
export const CheckpointDiffRequestSchema = z
  .strictObject({
    from_checkpoint_id: CheckpointIdSchema,
    to_checkpoint_id: CheckpointIdSchema.optional(),
    to_runtime_id: RuntimeIdSchema.optional(),
    limit: PageLimitSchema.optional(),
    cursor: CursorSchema.optional(),
  })
  .refine((request) => (request.to_checkpoint_id === undefined) !== (request.to_runtime_id === undefined), {
    message: 'give exactly one of to_checkpoint_id and to_runtime_id',
    path: ['to_checkpoint_id'],
  });
export type CheckpointDiffRequest = z.infer<typeof CheckpointDiffRequestSchema>;

const EntryKindSchema = z.enum(['file', 'directory', 'symlink']);

/** One changed path. `old_*` are null for an added path, `new_*` for a removed one. */
export const DiffEntrySchema = z.object({
  path: z.string(),
  change: DiffChangeSchema,
  old_kind: EntryKindSchema.nullable(),
  new_kind: EntryKindSchema.nullable(),
  old_size: z.number().int().nullable(),
  new_size: z.number().int().nullable(),
  old_mode: z.number().int().nullable(),
  new_mode: z.number().int().nullable(),
  /** A symlink's target on each side (null where that side is not a symlink), so a patch can show it. */
  old_target: z.string().nullable(),
  new_target: z.string().nullable(),
});
export type DiffEntry = z.infer<typeof DiffEntrySchema>;

export const DiffSummarySchema = z.object({
  added: z.number().int(),
  removed: z.number().int(),
  modified: z.number().int(),
  mode_changed: z.number().int(),
  type_changed: z.number().int(),
});
export type DiffSummary = z.infer<typeof DiffSummarySchema>;

export const CheckpointDiffResultSchema = z.object({
  from_checkpoint_id: z.string(),
  to_checkpoint_id: z.string().nullable(),
  to_runtime_id: z.string().nullable(),
  from_manifest_root: z.string(),
  to_manifest_root: z.string(),
  /** This page of changed paths, sorted by path (UTF-16 code units, as JavaScript compares strings). */
  entries: z.array(DiffEntrySchema),
  next_cursor: z.string().nullable(),
  /** Counts over the whole diff, every page. */
  summary: DiffSummarySchema,
});
export type CheckpointDiffResult = z.infer<typeof CheckpointDiffResultSchema>;
