import { z } from 'zod';
import { ERROR_CODES, type ProviderCapabilities, type RestoreVerificationDefault, type SnapshotKind } from '@runtimectl/provider';

export const HealthResultSchema = z.object({ status: z.literal('ok'), version: z.string() });
export type HealthResult = z.infer<typeof HealthResultSchema>;

/** What a provider's snapshots hold: the files only, or memory and processes too. */
export const SnapshotKindSchema = z.enum(['filesystem', 'memory']) satisfies z.ZodType<SnapshotKind>;

/** Whether a provider's restores are verified unless a runtime or the daemon says otherwise. */
export const RestoreVerificationDefaultSchema = z.enum(['default', 'opt_in']) satisfies z.ZodType<RestoreVerificationDefault>;

export const ProviderCapabilitiesSchema = z.object({
  /** `POST /checkpoint` works (always true: without a snapshot it records lineage and session state). */
  checkpoint: z.boolean(),
  /** Checkpoints carry a restorable provider snapshot (`has_provider_snapshot`). */
  snapshot: z.boolean(),
  checkout: z.boolean(),
  delete_snapshot: z.boolean(),
  pause: z.boolean(),
  /**
   * What a snapshot holds: `filesystem` (files; processes do not survive checkout, pause and
   * resume), `memory` (memory and processes too), null without snapshots.
   */
  snapshot_kind: SnapshotKindSchema.nullable(),
  /**
   * Whether checkout and resume verify the restored workspace against the checkpoint's manifest
   * by default (`default`) or only when a runtime asks (`opt_in`); null without checkout.
   */
  restore_verification: RestoreVerificationDefaultSchema.nullable(),
}) satisfies z.ZodType<ProviderCapabilities>;

/** A setting a provider chose for this machine (`settingsInForce`): its value, and why when it is not what was asked. */
export const ProviderSettingInForceSchema = z.object({ value: z.string(), reason: z.string().optional() });

export const ProviderListResultSchema = z.object({
  providers: z.array(
    z.object({
      provider: z.string(),
      capabilities: ProviderCapabilitiesSchema,
      /**
       * The settings the provider chose for this machine, by name (provider-fs: `snapshot_store`,
       * `isolation`); empty when it has none to tell; null when it could not say.
       */
      in_force: z.record(z.string(), ProviderSettingInForceSchema).nullable(),
    }),
  ),
});
export type ProviderListResult = z.infer<typeof ProviderListResultSchema>;

/** The body of every non-2xx response. */
export const ErrorBodySchema = z.object({
  error: z.string(),
  code: z.enum(ERROR_CODES),
  details: z.record(z.string(), z.unknown()).optional(),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;
