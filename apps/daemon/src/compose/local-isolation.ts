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
 * composes the local provider) — after each one's probe ran, one phrase per provider: the
 * network commands have, who they are on the host, where they see their workspace and their
 * limits, each with what is missing and why. An explicit `isolation = "namespace"` that this
 * machine cannot honour, or `sandbox_ids` it cannot use, stops the start (exit 2). With the
 * host's network, a command can reach this daemon's loopback API: said unless a bearer token
 * guards it (a command cannot read the token: it never sees the daemon's environment).
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
    const key = error instanceof TypeError ? 'sandbox_ids' : 'isolation';
    throw new ConfigError(`providers.${id}.${key}: ${(error as Error).message}`);
  }
  if (inForce.mode === 'none') return `${id} isolation: none (${inForce.reason ?? 'not available'})`;
  const parts = [network(id, inForce, bearerToken), identity(inForce), `workspace ${inForce.workspacePath ?? 'at its host path'}`, limits(id, inForce)];
  return `${id} isolation: namespace (${parts.join('; ')})`;
}

function network(id: string, inForce: IsolationInForce, bearerToken: boolean): string {
  if (inForce.network === 'egress') return `network egress via ${inForce.egressHelper ?? 'a user-mode stack'}`;
  if (inForce.network === 'none') return inForce.networkReason ? `network none: ${inForce.networkReason}` : 'network none';
  if (bearerToken) return 'network host';
  return `network host: commands can reach this API on loopback; set a bearer token or providers.${id}.network = "egress"`;
}

function identity(inForce: IsolationInForce): string {
  if (inForce.identity) return `commands as uid ${inForce.identity.uid} gid ${inForce.identity.gid}`;
  return `commands as this daemon's user (${inForce.identityReason ?? 'no sandbox identity'})`;
}

const GiB = 1024 ** 3;
const MiB = 1024 ** 2;

function limits(id: string, inForce: IsolationInForce): string {
  const set = inForce.limits;
  const said: string[] = [];
  if (set?.memoryBytes) said.push(`memory ${set.memoryBytes % GiB === 0 ? `${set.memoryBytes / GiB} GiB` : `${Math.round(set.memoryBytes / MiB)} MiB`}`);
  if (set?.pids) said.push(`${set.pids} processes`);
  if (set?.cpuCores) said.push(`${set.cpuCores} CPU`);
  if (said.length > 0) return `limits ${said.join(', ')} (${inForce.limitsVia ?? 'cgroup'})`;
  if (inForce.limitsReason) return `no limits: ${inForce.limitsReason}`;
  return `no limits (providers.${id} sets none)`;
}
