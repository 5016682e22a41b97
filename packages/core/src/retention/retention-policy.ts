/**
 * What a retention policy keeps of a runtime's provider snapshots (records always stay):
 * - `keepLast` only: the snapshots of its newest N snapshotted checkpoints;
 * - `expireUnusedAfterMs` only: the snapshots used (made, checked out, resumed) within that time;
 * - both: the newest N, and older ones used within that time.
 * null disables a rule; with neither rule set nothing is deleted.
 */
export interface RetentionPolicy {
  keepLast: number | null;
  expireUnusedAfterMs: number | null;
}

/** A runtime's own settings: a field given replaces the daemon's (null turns that rule off). */
export type RetentionOverride = Partial<RetentionPolicy>;

export const NO_RETENTION: RetentionPolicy = Object.freeze({ keepLast: null, expireUnusedAfterMs: null });

export function effectivePolicy(daemon: RetentionPolicy, override: RetentionOverride | null | undefined): RetentionPolicy {
  return {
    keepLast: override?.keepLast !== undefined ? override.keepLast : daemon.keepLast,
    expireUnusedAfterMs: override?.expireUnusedAfterMs !== undefined ? override.expireUnusedAfterMs : daemon.expireUnusedAfterMs,
  };
}

export const isActive = (policy: RetentionPolicy): boolean => policy.keepLast !== null || policy.expireUnusedAfterMs !== null;

/** A runtime's settings as the wire gives them (`retention` at open and update). */
export interface RetentionSettingsWire {
  keep_last?: number | null | undefined;
  expire_unused_after_ms?: number | null | undefined;
}

export function overrideFromWire(settings: RetentionSettingsWire): RetentionOverride {
  return {
    ...(settings.keep_last !== undefined ? { keepLast: settings.keep_last } : {}),
    ...(settings.expire_unused_after_ms !== undefined ? { expireUnusedAfterMs: settings.expire_unused_after_ms } : {}),
  };
}

export function overrideToWire(override: RetentionOverride | null | undefined): { keep_last?: number | null; expire_unused_after_ms?: number | null } {
  return {
    ...(override?.keepLast !== undefined ? { keep_last: override.keepLast } : {}),
    ...(override?.expireUnusedAfterMs !== undefined ? { expire_unused_after_ms: override.expireUnusedAfterMs } : {}),
  };
}
