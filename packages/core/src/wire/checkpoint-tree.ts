import { z } from 'zod';
import { CursorSchema, PageLimitSchema } from './common';

/**
 * **[ext]** `GET /checkpoints/{checkpoint_id}/tree`: one directory of a checkpoint as its content
 * manifest records it, read from the store (nothing is restored, no provider is called).
 */
export const CheckpointTreeQuerySchema = z.strictObject({
  /** A directory relative to the workspace root (`src/lib`); absent or empty: the root. */
  path: z
    .string()
    .max(4096)
    .refine((value) => !value.includes('\u0000'), { message: 'paths cannot contain NUL bytes' })
    .optional(),
  limit: PageLimitSchema.optional(),
  cursor: CursorSchema.optional(),
});
export type CheckpointTreeQuery = z.infer<typeof CheckpointTreeQuerySchema>;

/** One entry of the directory: a file's size is its content's, a symlink carries its target. */
export const CheckpointTreeEntrySchema = z.object({
  name: z.string(),
  kind: z.enum(['file', 'directory', 'symlink']),
  mode: z.number().int(),
  size: z.number().int(),
  target: z.string().nullable(),
});
export type CheckpointTreeEntry = z.infer<typeof CheckpointTreeEntrySchema>;

export const CheckpointTreeResultSchema = z.object({
  checkpoint_id: z.string(),
  /** The directory listed, normalised (`''` for the root). */
  path: z.string(),
  /** Entries in name order (UTF-16 code units), a page of at most `limit` (default 500). */
  entries: z.array(CheckpointTreeEntrySchema),
  next_cursor: z.string().nullable(),
});
export type CheckpointTreeResult = z.infer<typeof CheckpointTreeResultSchema>;
