import type { BackendProviderV1 } from '@runtimectl/core';
import { createLocalProvider } from '@runtimectl/provider-local';
import type { ServerTelemetry } from '@runtimectl/server-http';
import { createMemoryProvider } from '@runtimectl/testkit/memory-provider';
import { ConfigError } from '../config/config-error';
import type { ResolvedConfig } from '../config/load-config';

/** The providers the configuration enables, in a stable order; `telemetry` gets the local provider's quota metrics. */
export async function createProviders(config: ResolvedConfig, telemetry?: ServerTelemetry): Promise<BackendProviderV1[]> {
  const providers: BackendProviderV1[] = [];
  const local = config.providers.local;
  if (local.enabled) {
    const provider = createLocalProvider({
      root: config.localRoot,
      shell: local.shell,
      keepWorkspaces: local.keep_workspaces,
      env: local.env,
      workspaceQuotaBytes: local.workspace_quota_bytes,
      isolation: local.isolation,
      network: local.network,
      quotaObserver: { refused: (operation) => telemetry?.recordWorkspaceQuotaRefusal(operation) },
    });
    telemetry?.watchWorkspaceUsage(() => provider.workspaceUsage());
    providers.push(provider);
  }
  if (config.providers.memory.enabled) providers.push(createMemoryProvider());
  if (config.providers.e2b.enabled) providers.push(await createE2B(config.providers.e2b, config.fleet.lease_ms));
  return providers;
}

/**
 * The E2B provider; a missing key or a bad URL is a configuration error naming the section.
 * Imported only when enabled: the e2b SDK is the largest thing the daemon loads, and start-up
 * time (`npm run bench`) should not pay for it when E2B is off.
 */
async function createE2B(e2b: ResolvedConfig['providers']['e2b'], leaseMs: number): Promise<BackendProviderV1> {
  const { createE2BProvider } = await import('@runtimectl/provider-e2b');
  try {
    return createE2BProvider({
      apiKeyEnv: e2b.api_key_env,
      template: e2b.template,
      sandboxTimeoutMs: e2b.sandbox_timeout_ms,
      // A runtime's own timeout_ms obeys the fleet's rule too (docs/config.md, keep-alive).
      minSandboxTimeoutMs: 2 * leaseMs + 1,
      requestTimeoutMs: e2b.request_timeout_ms,
      ...(e2b.api_url !== undefined ? { apiUrl: e2b.api_url } : {}),
      ...(e2b.sandbox_url !== undefined ? { sandboxUrl: e2b.sandbox_url } : {}),
      ...(e2b.domain !== undefined ? { domain: e2b.domain } : {}),
    });
  } catch (error) {
    if (error instanceof TypeError) throw new ConfigError(`providers.e2b: ${error.message.replace(/^createE2BProvider: /, '')}`);
    throw error;
  }
}
