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
 * The start line's words on how commands on this machine are isolated — local's, and fs's (it
 * composes the local provider) — after each one's probe ran, one phrase per provider.
 * An explicit `isolation = "namespace"` that this machine cannot honour stops the start (exit 2).
 * With the network on, a command can reach this daemon's loopback API: said unless a bearer
 * token guards it (a command cannot read the token: it never sees the daemon's environment).
 */
export async function describeLocalIsolation(providers: BackendProviderV1[], bearerToken: boolean): Promise<string | undefined> {
  const isolated = providers.filter(hasIsolation);
  if (isolated.length === 0) return undefined;
  const phrases = await Promise.all(isolated.map((provider) => describeOne(provider, bearerToken)));
  return phrases.join(' · ');
}

async function describeOne(provider: BackendProviderV1 & WithIsolation, bearerToken: boolean): Promise<string> {
  const id = provider.providerId;
  let inForce: IsolationInForce;
  try {
    inForce = await provider.isolation();
  } catch (error) {
    throw new ConfigError(`providers.${id}.isolation: ${(error as Error).message}`);
  }
  if (inForce.mode === 'none') return `${id} isolation: none (${inForce.reason ?? 'not available'})`;
  if (!inForce.network) return `${id} isolation: namespace (network off)`;
  if (bearerToken) return `${id} isolation: namespace (network on)`;
  return `${id} isolation: namespace (network on: commands can reach this API on loopback; set a bearer token or providers.${id}.network = false)`;
}
