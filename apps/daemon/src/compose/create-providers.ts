import { chmodSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BackendProviderV1, ProviderContext } from '@runtimectl/core';
import type { ServerTelemetry } from '@runtimectl/server-http';
import type { Logger } from 'pino';
import { ConfigError } from '../config/config-error';
import type { ResolvedConfig } from '../config/load-config';
import type { LoadedProvider } from '../providers/load-providers';
import { OWNER_ONLY_DIRECTORY_MODE } from '@runtimectl/provider-local';

/** What runs the providers: where their state directories go, the fleet's lease, the daemon's logger and metrics. */
export interface ProviderHost {
  config: ResolvedConfig;
  nodeId: string;
  logger: Logger;
  telemetry: ServerTelemetry;
}

/** The context `create` gets: its own owner-only state directory, ids, logs and metrics hooks; never the daemon's secrets. */
function contextFor(id: string, host: ProviderHost): ProviderContext {
  const providersDir = join(host.config.stateDir, 'providers');
  const stateDir = join(providersDir, id);
  mkdirSync(stateDir, { recursive: true, mode: OWNER_ONLY_DIRECTORY_MODE });
  // Owner-only even where an older build or an operator left them open; what is inside is the provider's.
  for (const directory of [providersDir, stateDir]) chmodSync(directory, OWNER_ONLY_DIRECTORY_MODE);
  return {
    providerId: id,
    stateDir,
    nodeId: host.nodeId,
    leaseMs: host.config.fleet.lease_ms,
    logger: host.logger.child({ provider: id }),
    telemetry: {
      workspaceQuotaRefused: (operation) => host.telemetry.recordWorkspaceQuotaRefusal(operation),
      watchWorkspaceUsage: (read) => host.telemetry.watchWorkspaceUsage(read),
    },
  };
}

/**
 * A settings rule `create` enforces itself (a workspace path among system directories, a timeout
 * under the fleet's lease), as a configuration error naming the section and, where the message
 * starts with one, the key.
 */
function settingsError(id: string, error: TypeError): ConfigError {
  const message = error.message.replace(/^create\w*Provider: /, '');
  return new ConfigError(/^[a-z_]+: /.test(message) ? `providers.${id}.${message}` : `providers.${id}: ${message}`);
}

/** Creates each loaded provider with its context and checks it is the provider its section names. */
export async function createProviders(loaded: readonly LoadedProvider[], host: ProviderHost): Promise<BackendProviderV1[]> {
  const providers: BackendProviderV1[] = [];
  for (const { id, definition, settings, source } of loaded) {
    let provider: BackendProviderV1;
    try {
      provider = await definition.create(settings, contextFor(id, host));
    } catch (error) {
      if (error instanceof TypeError) throw settingsError(id, error);
      throw error;
    }
    if (provider?.specificationVersion !== definition.specificationVersion) {
      throw new ConfigError(`providers.${id}: ${source} created something that is not a ${definition.specificationVersion} provider`);
    }
    if (provider.providerId !== id) {
      throw new ConfigError(`providers.${id}: ${source} created the provider "${provider.providerId}"; name its section [providers.${provider.providerId}], or let it take its id from the section`);
    }
    providers.push(provider);
  }
  return providers;
}
