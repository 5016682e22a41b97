import { InvalidRequestError } from '@runtimectl/provider';
import { z } from 'zod';
import { MAX_SANDBOX_TIMEOUT_MS, MIN_SANDBOX_TIMEOUT_MS } from './e2b-settings';
import { bareSnapshotName, SNAPSHOT_NAME_PREFIX } from './snapshot-names';

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * What a caller may choose per runtime (`provider_options` at open). Connection settings — the
 * key, URLs, the workspace root — are the provider's own settings and never accepted here, so a
 * caller can neither point the daemon at another host nor make it use another key.
 */
export const e2bRuntimeOptionsSchema = runtimeOptionsSchemaWith(MIN_SANDBOX_TIMEOUT_MS);

/** The runtime options with `timeout_ms` at least `minTimeoutMs` (the provider's `minSandboxTimeoutMs`). */
export function runtimeOptionsSchemaWith(minTimeoutMs: number) {
  return z.strictObject({
  /** Template the sandbox starts from (ignored by checkout and resume: they start from the snapshot). */
  template: z
    .string()
    .min(1)
    .max(256)
    .regex(/^[^\s\u0000-\u001f]+$/, 'a template name or id, no spaces')
    // A runtimectl snapshot as a template would start a runtime from another runtime's snapshot
    // with no lineage and a keeper core does not know of (its deletion would then fail): callers
    // name checkpoints, never provider resources.
    .refine((template) => !bareSnapshotName(template).startsWith(SNAPSHOT_NAME_PREFIX), 'a runtimectl snapshot is not a template: check out its checkpoint instead')
    .optional(),
  /** Variables set in the sandbox for every command (E2B's `envs`). */
  envs: z
    .record(z.string().regex(ENV_NAME, 'an environment variable name'), z.string().refine((value) => !value.includes('\0'), 'no NUL'))
    .optional(),
  /** The sandbox's own timeout (how long it outlives its daemon), instead of the provider's `sandboxTimeoutMs`. */
  timeout_ms: z.int().min(minTimeoutMs).max(MAX_SANDBOX_TIMEOUT_MS).optional(),
  });
}

export type E2BRuntimeOptions = z.infer<typeof e2bRuntimeOptionsSchema>;

/** Reads options core already validated; a direct caller's are validated here (`InvalidRequestError`). */
export function runtimeOptionsOf(options: Record<string, unknown>, schema: z.ZodType<E2BRuntimeOptions> = e2bRuntimeOptionsSchema): E2BRuntimeOptions {
  const parsed = schema.safeParse(options);
  if (!parsed.success) {
    throw new InvalidRequestError('invalid e2b provider_options', { issues: parsed.error.issues.map((issue) => ({ path: issue.path.map(String), message: issue.message })) });
  }
  return parsed.data;
}
