import { envNameOf } from '../config/config-keys';
import { FIRST_PARTY_PROVIDERS } from '../providers/first-party-providers';

const KNOWN_PROVIDERS = Object.keys(FIRST_PARTY_PROVIDERS);

/**
 * What an `unknown provider` error adds (through core's ProviderRegistry): for a provider this
 * daemon can run but its config leaves off, the setting that enables it, as a file key and as a
 * variable; for any other id, the providers it can run.
 */
export function unknownProviderHint(providerId: string): string {
  if (!KNOWN_PROVIDERS.includes(providerId)) {
    return `runtimed runs the providers ${KNOWN_PROVIDERS.slice(0, -1).join(', ')} and ${KNOWN_PROVIDERS.at(-1)} (docs/config.md).`;
  }
  const key = `providers.${providerId}.enabled`;
  const credentials = providerId === 'e2b' ? ', with its API key in E2B_API_KEY' : '';
  return `Enable it in runtimed's config: \`[providers.${providerId}] enabled = true\`, or ${envNameOf(key)}=true${credentials} (docs/config.md), and restart it.`;
}
