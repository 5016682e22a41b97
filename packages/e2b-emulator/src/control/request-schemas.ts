/**
 * Request bodies of the control plane. Unknown keys are accepted (E2B ignores fields it does
 * not know); the known ones are type-checked and answer 400 when malformed.
 */
import { z } from 'zod';

/** E2B's ceiling for a sandbox timeout (Pro tier): 24 hours. */
export const MAX_TIMEOUT_SECONDS = 86_400;

const timeoutSeconds = z.number().int().min(0).max(MAX_TIMEOUT_SECONDS);
const stringMap = z.record(z.string(), z.string());

/** `POST /v2/sandboxes` (NewSandboxV2) and `POST /sandboxes` (v1, which adds `secure`). */
export const createSandboxBody = z.looseObject({
  templateID: z.string().min(1),
  timeout: timeoutSeconds.optional(),
  metadata: stringMap.nullish(),
  envVars: stringMap.nullish(),
  allow_internet_access: z.boolean().nullish(),
  secure: z.boolean().nullish(),
  autoPause: z.boolean().nullish(),
  autoPauseMemory: z.boolean().nullish(),
  autoResume: z.object({ enabled: z.boolean() }).nullish(),
  mcp: z.unknown().optional(),
  volumeMounts: z.array(z.unknown()).nullish(),
});

/** `POST /v2/sandboxes/{id}/connect`, `POST /sandboxes/{id}/connect` and the deprecated resume. */
export const connectSandboxBody = z.looseObject({
  timeout: timeoutSeconds.optional(),
  memory: z.boolean().nullish(),
});

export const pauseSandboxBody = z.looseObject({ memory: z.boolean().nullish() });

export const setTimeoutBody = z.looseObject({ timeout: timeoutSeconds });

/** Most forks one `POST /sandboxes/{id}/fork` may ask for (E2B's limit). */
export const MAX_FORK_COUNT = 100;

/** `POST /sandboxes/{id}/fork` (SandboxForkRequest): `count` default 1, `timeout` default 15 s. */
export const forkSandboxBody = z.looseObject({
  count: z.number().int().nullish(),
  timeout: timeoutSeconds.nullish(),
});

/** Snapshot names become template aliases: letters, digits, `.`, `_`, `-`. */
export const createSnapshotBody = z.looseObject({
  name: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/, 'name may hold letters, digits, ".", "_" and "-" (at most 128)')
    .nullish(),
});
