import { InvalidRequestError, type BackendProviderV1 } from '@runtimectl/provider';

/**
 * The per-runtime options a provider declares, parsed by its schema (defaults applied). Throws
 * InvalidRequestError for options the provider does not accept.
 */
export function validateProviderOptions(provider: BackendProviderV1, options: Record<string, unknown> | undefined): Record<string, unknown> {
  if (!provider.runtimeOptionsSchema) {
    if (options && Object.keys(options).length > 0) {
      throw new InvalidRequestError(`provider ${provider.providerId} accepts no provider_options`, {
        provider: provider.providerId,
      });
    }
    return {};
  }
  const parsed = provider.runtimeOptionsSchema.safeParse(options ?? {});
  if (!parsed.success) {
    throw new InvalidRequestError(`invalid provider_options for ${provider.providerId}`, {
      provider: provider.providerId,
      issues: parsed.error.issues,
    });
  }
  return parsed.data;
}
