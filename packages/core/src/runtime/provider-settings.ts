import type { BackendProviderV1, ProviderSettingInForce } from '@runtimectl/provider';

/** An absolute path in a provider's words (a probe's error message may carry one). */
const ABSOLUTE_PATH = /(?<![\w.~-])\/[^\s'"`,;:()[\]{}]+/g;

/**
 * The settings `provider` chose for this machine, as `GET /providers` shows them: {} when it has
 * none to tell, null when asking failed. Reasons reach every API caller: absolute paths in them
 * become `<path>`, whatever the provider wrote.
 */
export async function providerSettingsInForce(provider: BackendProviderV1): Promise<Record<string, ProviderSettingInForce> | null> {
  if (!provider.settingsInForce) return {};
  let settings: Record<string, ProviderSettingInForce>;
  try {
    settings = await provider.settingsInForce();
  } catch {
    return null;
  }
  return Object.fromEntries(
    Object.entries(settings).map(([name, { value, reason }]) => [name, reason === undefined ? { value } : { value, reason: reason.replace(ABSOLUTE_PATH, '<path>') }]),
  );
}
