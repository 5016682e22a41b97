import { UnsupportedBackendError, type BackendProviderV1, providerCapabilities } from '@runtimectl/provider';
import type { SessionRecord } from '../store/records';

/** The daemon's idle policy (RuntimeServiceOptions.idle, `[runtimes]` in the daemon's config); runtimes may override both. */
export interface IdleSettings {
  /** Pause a runtime after this long without an operation; null: never (the default). */
  pauseAfterMs: number | null;
  /** Resume a paused runtime when an operation needs its backend (default false: `runtime_paused`). */
  autoResume: boolean;
}

export function idleSettingsOf(settings: { pauseAfterMs?: number | null; autoResume?: boolean } = {}): IdleSettings {
  const pauseAfterMs = settings.pauseAfterMs ?? null;
  if (pauseAfterMs !== null && !(Number.isSafeInteger(pauseAfterMs) && pauseAfterMs >= 0)) throw new TypeError(`idle.pauseAfterMs must be an integer ≥ 0, got ${pauseAfterMs}`);
  return { pauseAfterMs: pauseAfterMs === 0 ? null : pauseAfterMs, autoResume: settings.autoResume ?? false };
}

const canPause = (provider: BackendProviderV1) => providerCapabilities(provider).pause;

/**
 * A runtime's own idle pause, as open and update give it: refused (`unsupported_backend`) when
 * it would pause a runtime whose provider cannot pause, rather than ignored. 0 and null always pass.
 */
export function assertIdlePausable(provider: BackendProviderV1, idlePauseAfterMs: number | null | undefined): void {
  if (idlePauseAfterMs != null && idlePauseAfterMs > 0 && !canPause(provider)) throw new UnsupportedBackendError(provider.providerId, 'pause');
}

/**
 * How long `session` may go without an operation before it is paused, or null: never — its own
 * 0, no setting of its own nor the daemon's, or a provider that cannot pause (the daemon's
 * default passes such runtimes over).
 */
export function idlePauseAfterOf(settings: IdleSettings, provider: BackendProviderV1 | undefined, session: SessionRecord): number | null {
  const after = session.idlePauseAfterMs ?? settings.pauseAfterMs;
  return after !== null && after > 0 && provider !== undefined && canPause(provider) ? after : null;
}

/** Whether an operation on `session` while it is paused resumes it first. */
export function autoResumesOf(settings: IdleSettings, session: SessionRecord): boolean {
  return session.autoResume ?? settings.autoResume;
}
