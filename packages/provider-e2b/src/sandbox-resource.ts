import type { BackendResource } from '@runtimectl/provider';

/**
 * What core persists for an E2B backend: the sandbox id, and the sandbox timeout when the
 * runtime chose its own (so a re-attach after a restart keeps refreshing it with that timeout).
 */
export interface SandboxResource {
  sandboxId: string;
  timeoutMs?: number;
}

/** E2B sandbox ids: letters and digits (the SDK puts them in URL paths and headers). */
const SANDBOX_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

/** The metadata key holding a runtime's own sandbox timeout, so listings can rebuild the resource. */
export const TIMEOUT_LABEL = 'runtimectl_sandbox_timeout_ms';

export function resourceOf(sandbox: SandboxResource): BackendResource {
  return sandbox.timeoutMs === undefined ? { sandboxId: sandbox.sandboxId } : { sandboxId: sandbox.sandboxId, timeoutMs: sandbox.timeoutMs };
}

/** The sandbox a persisted resource names, or undefined when it names none of ours. */
export function sandboxOf(resource: BackendResource): SandboxResource | undefined {
  const sandboxId = resource.sandboxId;
  if (typeof sandboxId !== 'string' || !SANDBOX_ID.test(sandboxId)) return undefined;
  const timeoutMs = resource.timeoutMs;
  return typeof timeoutMs === 'number' && Number.isInteger(timeoutMs) && timeoutMs > 0 ? { sandboxId, timeoutMs } : { sandboxId };
}

/** Rebuilds the resource of a listed sandbox from its metadata. */
export function resourceFromMetadata(sandboxId: string, metadata: Record<string, string>): BackendResource {
  const timeoutMs = Number(metadata[TIMEOUT_LABEL]);
  return resourceOf(Number.isInteger(timeoutMs) && timeoutMs > 0 ? { sandboxId, timeoutMs } : { sandboxId });
}
