import type { BackendProviderV1 } from '@runtimectl/core';
import type { IsolationInForce } from '@runtimectl/provider-local';
import { ConfigError } from '../config/config-error';

interface WithIsolation {
  isolation(): Promise<IsolationInForce>;
}

function hasIsolation(provider: BackendProviderV1): provider is BackendProviderV1 & WithIsolation {
  return typeof (provider as Partial<WithIsolation>).isolation === 'function';
}

/**
 * The start line's words on how the local provider's commands are isolated, after its probe ran.
 * An explicit `isolation = "namespace"` that this machine cannot honour stops the start (exit 2).
 * With the network on, a command can reach this daemon's loopback API: said unless a bearer
 * token guards it (a command cannot read the token: it never sees the daemon's environment).
 */
export async function describeLocalIsolation(providers: BackendProviderV1[], bearerToken: boolean): Promise<string | undefined> {
  const local = providers.find((provider) => provider.providerId === 'local');
  if (!local || !hasIsolation(local)) return undefined;
  let inForce: IsolationInForce;
  try {
    inForce = await local.isolation();
  } catch (error) {
    throw new ConfigError(`providers.local.isolation: ${(error as Error).message}`);
  }
  if (inForce.mode === 'none') return `local isolation: none (${inForce.reason ?? 'not available'})`;
  if (!inForce.network) return 'local isolation: namespace (network off)';
  if (bearerToken) return 'local isolation: namespace (network on)';
  return 'local isolation: namespace (network on: commands can reach this API on loopback; set a bearer token or providers.local.network = false)';
}
