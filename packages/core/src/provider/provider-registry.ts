import { InvalidRequestError, type BackendProviderV1 } from '@runtimectl/provider';

export interface ProviderRegistryOptions {
  /**
   * What to do about a provider id that is not registered, appended to the `unknown provider`
   * error: the composition root knows how its providers are enabled (core does not).
   */
  unknownProviderHint?: (providerId: string) => string | undefined;
}

/** providerId → provider. The composition root registers providers; core looks them up. */
export class ProviderRegistry {
  readonly #providers = new Map<string, BackendProviderV1>();
  readonly #options: ProviderRegistryOptions;

  constructor(providers: Iterable<BackendProviderV1> = [], options: ProviderRegistryOptions = {}) {
    this.#options = options;
    for (const provider of providers) this.register(provider);
  }

  register(provider: BackendProviderV1): void {
    if (provider.specificationVersion !== 'backend-provider-v1') {
      throw new TypeError(
        `provider ${String(provider.providerId)} implements ${String(provider.specificationVersion)}, expected backend-provider-v1`,
      );
    }
    if (this.#providers.has(provider.providerId)) {
      throw new TypeError(`provider ${provider.providerId} is already registered`);
    }
    this.#providers.set(provider.providerId, provider);
  }

  /** Throws `InvalidRequestError` naming the known providers (and the hint, if any) when `providerId` is unknown. */
  get(providerId: string): BackendProviderV1 {
    const provider = this.#providers.get(providerId);
    if (!provider) {
      const configured = [...this.#providers.keys()];
      const hint = this.#options.unknownProviderHint?.(providerId);
      throw new InvalidRequestError(`unknown provider ${providerId} (configured: ${configured.join(', ') || 'none'})${hint ? `. ${hint}` : ''}`, {
        provider: providerId,
        configured,
      });
    }
    return provider;
  }

  has(providerId: string): boolean {
    return this.#providers.has(providerId);
  }

  list(): BackendProviderV1[] {
    return [...this.#providers.values()];
  }
}
