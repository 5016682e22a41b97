import { z } from 'zod';

/** A runtime's own retention settings (open, update): a field given replaces the daemon's; null turns that rule off. */
export const RetentionSettingsSchema = z.strictObject({
  keep_last: z.number().int().min(1).max(1_000_000).nullable().optional(),
  expire_unused_after_ms: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).nullable().optional(),
});
export type RetentionSettings = z.infer<typeof RetentionSettingsSchema>;
