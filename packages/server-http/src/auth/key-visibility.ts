import type { RuntimeEvent, RuntimeService } from '@runtimectl/core';
import type { ApiKeyConfig } from './api-keys';
import { RuntimeScope } from './runtime-scope';

/** Lineage answers kept before the scope starts afresh (each is for good: a runtime's lineage never changes). */
const MAX_REMEMBERED = 10_000;

/**
 * Which events a key may see, for a receiver bound to it (a webhook's `key`): the events `GET
 * /events` shows it — for a key scoped to runtimes, those of its runtimes, their conversations'
 * and their branches; for any other key, every event — and none once the key has expired.
 */
export function keyVisibility(key: ApiKeyConfig, service: RuntimeService, nowMs: () => number = Date.now): (event: RuntimeEvent) => Promise<boolean> {
  const { runtimes, expiresAtMs } = key;
  let scope: RuntimeScope | undefined;
  let lookups = 0;
  return async (event) => {
    if (expiresAtMs !== undefined && nowMs() >= expiresAtMs) return false;
    if (!runtimes) return true;
    if (event.runtimeId === null) return false;
    if (!scope || lookups >= MAX_REMEMBERED) {
      scope = new RuntimeScope(service, runtimes);
      lookups = 0;
    }
    lookups += 1;
    return scope.includesRuntime(event.runtimeId);
  };
}
