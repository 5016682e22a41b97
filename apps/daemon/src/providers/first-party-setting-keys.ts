import type { ConfigKey } from '../config/config-keys';
import { FIRST_PARTY_PROVIDERS } from './first-party-providers';
import { importProviderDefinition } from './import-provider-definition';
import { providerSettingKeys } from './provider-settings';

/** The first-party providers' settings as `runtimed --help` lists them, from their packages' schemas. */
export async function firstPartySettingKeys(): Promise<ConfigKey[]> {
  const keys: ConfigKey[] = [];
  for (const [id, { package: name }] of Object.entries(FIRST_PARTY_PROVIDERS)) {
    const definition = await importProviderDefinition(name, process.cwd(), `providers.${id}`);
    keys.push(...providerSettingKeys(definition, id));
  }
  return keys;
}
