import { resolve } from 'node:path';
import type { ProviderDefinition } from '@runtimectl/provider';
import { ConfigError } from '../config/config-error';
import type { ResolvedConfig } from '../config/load-config';
import { FIRST_PARTY_PROVIDERS } from './first-party-providers';
import { importProviderDefinition } from './import-provider-definition';
import { resolveProviderSettings } from './provider-settings';

/** A provider the configuration runs: its definition and validated settings, before it is created. */
export interface LoadedProvider {
  id: string;
  definition: ProviderDefinition;
  settings: unknown;
  /** Where it came from, for the banner and errors: a package name or path, or `embedded`. */
  source: string;
}

/** Whether `[providers.<id>]` runs: its `enabled`, else yes for a first-party provider on by default, a section naming a package, or a definition handed to startDaemon. */
function isEnabled(id: string, config: ResolvedConfig, embedded: boolean): boolean {
  const section = config.providers[id];
  if (section?.enabled !== undefined) return section.enabled;
  if (embedded || section?.package !== undefined) return true;
  return FIRST_PARTY_PROVIDERS[id]?.enabledByDefault ?? section !== undefined;
}

/** The definition a section names: handed to startDaemon, its `package`, or the first-party package of its id. */
async function definitionOf(id: string, config: ResolvedConfig, embedded: ProviderDefinition | undefined): Promise<{ definition: ProviderDefinition; source: string }> {
  const section = config.providers[id];
  if (embedded && section?.package === undefined) return { definition: embedded, source: 'embedded' };
  const specifier = section?.package ?? FIRST_PARTY_PROVIDERS[id]?.package;
  if (specifier === undefined) {
    throw new ConfigError(`providers.${id}: names no package; add package = "<npm package or path>" (first-party providers: ${Object.keys(FIRST_PARTY_PROVIDERS).join(', ')})`);
  }
  const key = section?.package === undefined ? `providers.${id}` : `providers.${id}.package`;
  return { definition: await importProviderDefinition(specifier, config.configDir, key), source: specifier };
}

/**
 * Every provider the configuration runs, loaded and with its settings validated, in a stable
 * order (first-party ids first, then sections as written, then embedded definitions). Each
 * failure stops the start with a line naming the key: package not found (and where it was looked
 * for), not a provider, a contract version this daemon does not speak, bad settings (key and
 * rule), a definition whose id differs from its section, two providers on one workspace root.
 */
export async function loadProviders(config: ResolvedConfig, embedded: readonly ProviderDefinition[] = []): Promise<LoadedProvider[]> {
  const embeddedById = new Map<string, ProviderDefinition>();
  for (const definition of embedded) {
    if (embeddedById.has(definition.id)) throw new ConfigError(`startDaemon: two provider definitions have the id ${definition.id}`);
    embeddedById.set(definition.id, definition);
  }
  const ids = [...new Set([...Object.keys(FIRST_PARTY_PROVIDERS), ...Object.keys(config.providers), ...embeddedById.keys()])];
  const loaded: LoadedProvider[] = [];
  for (const id of ids.filter((id) => isEnabled(id, config, embeddedById.has(id)))) {
    const { definition, source } = await definitionOf(id, config, embeddedById.get(id));
    const section = { ...FIRST_PARTY_PROVIDERS[id]?.compatibleDefaults(config.stateDir), ...config.providers[id] };
    const settings = resolveProviderSettings(definition, id, section, config.providerOverrides);
    loaded.push({ id, definition, settings, source });
  }
  assertDefaultProviderRuns(config, loaded);
  assertDistinctRoots(loaded);
  return loaded;
}

function assertDefaultProviderRuns(config: ResolvedConfig, loaded: readonly LoadedProvider[]): void {
  const ids = loaded.map((provider) => provider.id);
  if (!ids.includes(config.runtimes.default_provider)) {
    throw new ConfigError(`runtimes.default_provider: must name an enabled provider (enabled: ${ids.join(', ') || 'none'})`);
  }
}

/** Each provider lists the workspaces in its root as its own: sharing one, reconciliation would release the other's. */
function assertDistinctRoots(loaded: readonly LoadedProvider[]): void {
  const owners = new Map<string, string>();
  for (const { id, settings } of loaded) {
    const root = (settings as { root?: unknown }).root;
    if (typeof root !== 'string') continue;
    const other = owners.get(resolve(root));
    if (other !== undefined) {
      throw new ConfigError(`providers.${id}.root: must differ from providers.${other}.root (each provider takes every workspace in its directory for its own)`);
    }
    owners.set(resolve(root), id);
  }
}
