import { effectivePolicy, NO_RETENTION, type RetentionPolicy } from '../retention/retention-policy';
import type { CheckoutSettings, RetentionSettings } from './service-context';

// RuntimeService's options that are more than a default: validated once, at construction.

const DEFAULT_CHECKOUT: CheckoutSettings = { parallelism: 8 };
const DEFAULT_RETENTION_INTERVAL_MS = 60_000;

export function retentionSettingsOf(settings: Partial<RetentionPolicy> & { intervalMs?: number } = {}): RetentionSettings {
  const policy = effectivePolicy(NO_RETENTION, settings);
  if (policy.keepLast !== null && !(Number.isSafeInteger(policy.keepLast) && policy.keepLast >= 1)) throw new TypeError(`retention.keepLast must be an integer ≥ 1, got ${policy.keepLast}`);
  if (policy.expireUnusedAfterMs !== null && !(Number.isSafeInteger(policy.expireUnusedAfterMs) && policy.expireUnusedAfterMs >= 1)) {
    throw new TypeError(`retention.expireUnusedAfterMs must be a positive integer, got ${policy.expireUnusedAfterMs}`);
  }
  const intervalMs = settings.intervalMs ?? DEFAULT_RETENTION_INTERVAL_MS;
  if (!Number.isSafeInteger(intervalMs) || intervalMs < 1) throw new TypeError(`retention.intervalMs must be a positive integer, got ${intervalMs}`);
  return { policy, intervalMs };
}

export function checkoutSettingsOf(settings: Partial<CheckoutSettings> = {}): CheckoutSettings {
  const parallelism = settings.parallelism ?? DEFAULT_CHECKOUT.parallelism;
  if (!Number.isInteger(parallelism) || parallelism < 1) {
    throw new RangeError(`checkout.parallelism must be a positive integer, got ${parallelism}`);
  }
  return { parallelism };
}
