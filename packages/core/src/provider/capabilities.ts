import type { ProviderCapabilities } from '../wire/service-info';
import type { BackendProviderV1 } from './backend-provider-v1';

/** Derived from which optional methods exist, so it can never drift from the implementation. */
export function providerCapabilities(provider: BackendProviderV1): ProviderCapabilities {
  const checkpoint = typeof provider.checkpoint === 'function';
  const checkout = typeof provider.checkout === 'function';
  return {
    checkpoint,
    checkout,
    delete_snapshot: typeof provider.deleteSnapshot === 'function',
    pause: checkpoint && checkout,
  };
}
