import { z } from 'zod';
import { ERROR_CODES } from '@runtimectl/provider';
import { BackgroundProcessesSchema, CheckoutCountSchema } from './checkpoints';
import { MetadataSchema, NameSchema, PartyIdSchema, RuntimeIdSchema, RuntimeRecordSchema } from './common';

/** Why one child of an N-way checkout failed: the error body's code, message and details. */
export const CheckoutChildErrorSchema = z.object({
  code: z.enum(ERROR_CODES),
  message: z.string(),
  details: z.record(z.string(), z.unknown()).optional(),
});
export type CheckoutChildError = z.infer<typeof CheckoutChildErrorSchema>;

/** One child of an N-way checkout: the runtime it became, or the error it failed with (nothing of it is left). */
export const CheckoutChildResultSchema = z.union([
  z.strictObject({ runtime: RuntimeRecordSchema }),
  z.strictObject({ error: CheckoutChildErrorSchema }),
]);
export type CheckoutChildResult = z.infer<typeof CheckoutChildResultSchema>;

/** The answer of a checkout with `count`: one result per child, in order. */
export const RuntimeCheckoutChildrenResultSchema = z.object({
  checkpoint_id: z.string(),
  source_runtime_id: z.string(),
  results: z.array(CheckoutChildResultSchema),
});
export type RuntimeCheckoutChildrenResult = z.infer<typeof RuntimeCheckoutChildrenResultSchema>;

/** Fork: checkpoint `runtime_id` (`name`, `metadata` are the checkpoint's) and check that checkpoint out `count` ways. */
export const RuntimeForkRequestSchema = z.strictObject({
  runtime_id: RuntimeIdSchema,
  /** Default 1. */
  count: CheckoutCountSchema.optional(),
  name: NameSchema.optional(),
  metadata: MetadataSchema.optional(),
  conversation_id: PartyIdSchema.optional(),
  sender_id: PartyIdSchema.optional(),
});
export type RuntimeForkRequest = z.infer<typeof RuntimeForkRequestSchema>;

export const RuntimeForkResultSchema = RuntimeCheckoutChildrenResultSchema.extend({
  /** true when the checkpoint reused the runtime's last snapshot (no provider snapshot call). */
  reused_backend_snapshot: z.boolean(),
  /** The checkpoint's `background_processes` (see BackgroundProcessesSchema): jobs ran as its snapshot was taken. */
  background_processes: BackgroundProcessesSchema.optional(),
});
export type RuntimeForkResult = z.infer<typeof RuntimeForkResultSchema>;
