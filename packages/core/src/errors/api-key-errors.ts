import { RuntimectlError } from '@runtimectl/provider';

/** No stored API key has this name (a key from the daemon's config is not one: it is revoked by editing the config). */
export class ApiKeyNotFoundError extends RuntimectlError {
  constructor(readonly keyName: string) {
    super('api_key_not_found', `API key ${keyName} not found`, { details: { key: keyName } });
  }
}

/** A key with this name already exists (stored, or in the daemon's config). */
export class ApiKeyExistsError extends RuntimectlError {
  constructor(readonly keyName: string) {
    super('api_key_exists', `an API key named ${keyName} already exists`, { details: { key: keyName } });
  }
}
