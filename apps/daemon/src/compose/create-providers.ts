import type { BackendProviderV1 } from '@runtimectl/core';
import { createFsProvider } from '@runtimectl/provider-fs';
import { createLocalProvider, type LocalProviderSettings } from '@runtimectl/provider-local';
import type { ServerTelemetry } from '@runtimectl/server-http';
import { createMemoryProvider } from '@runtimectl/testkit/memory-provider';
import { ConfigError } from '../config/config-error';
import type { ResolvedConfig } from '../config/load-config';

type HostWorkspaceSection = Pick<
  ResolvedConfig['providers']['local'],
  'shell' | 'env' | 'workspace_quota_bytes' | 'isolation' | 'network' | 'workspace_path' | 'sandbox_ids' | 'memory_limit_bytes' | 'pids_limit' | 'cpu_limit_cores'
>;

/** The settings local and fs share (fs composes the local provider), from their config section. */
function hostWorkspaceSettings(section: HostWorkspaceSection, root: string, telemetry: ServerTelemetry | undefined): LocalProviderSettings {
  return {
    root,
    shell: section.shell,
    env: section.env,
    workspaceQuotaBytes: section.workspace_quota_bytes,
    isolation: section.isolation,
    network: section.network,
    workspacePath: section.workspace_path,
    sandboxIds: sandboxIds(section.sandbox_ids),
    limits: {
      ...(section.memory_limit_bytes === undefined ? {} : { memoryBytes: section.memory_limit_bytes }),
      ...(section.pids_limit === undefined ? {} : { pids: section.pids_limit }),
      ...(section.cpu_limit_cores === undefined ? {} : { cpuCores: section.cpu_limit_cores }),
    },
    quotaObserver: { refused: (operation) => telemetry?.recordWorkspaceQuotaRefusal(operation) },
  };
}

/** A provider's settings it refuses (a workspace path among system directories, a limit too small) stop the start naming its section. */
function settingsChecked<T>(id: string, create: () => T): T {
  try {
    return create();
  } catch (error) {
    if (error instanceof TypeError) throw new ConfigError(`providers.${id}: ${error.message.replace(/^createLocalProvider: /, '')}`);
    throw error;
  }
}

/** `sandbox_ids` as the providers take it: auto, the daemon's own ids (`caller`), or explicit ids. */
function sandboxIds(value: string): LocalProviderSettings['sandboxIds'] {
  if (value === 'auto') return 'auto';
  if (value === 'daemon') return 'caller';
  const [uid, gid] = value.split(':').map(Number);
  return { uid: uid!, gid: gid! };
}

/** The providers the configuration enables, in a stable order; `telemetry` gets local's and fs's quota metrics. */
export async function createProviders(config: ResolvedConfig, telemetry?: ServerTelemetry): Promise<BackendProviderV1[]> {
  const providers: BackendProviderV1[] = [];
  const { local, fs } = config.providers;
  if (local.enabled) {
    const provider = settingsChecked('local', () =>
      createLocalProvider({ ...hostWorkspaceSettings(local, config.localRoot, telemetry), keepWorkspaces: local.keep_workspaces }),
    );
    telemetry?.watchWorkspaceUsage(() => provider.workspaceUsage());
    providers.push(provider);
  }
  if (fs.enabled) {
    const provider = settingsChecked('fs', () =>
      createFsProvider({ ...hostWorkspaceSettings(fs, config.fsRoot, telemetry), snapshots: config.fsSnapshots, compress: fs.compress }),
    );
    telemetry?.watchWorkspaceUsage(() => provider.local.workspaceUsage());
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
