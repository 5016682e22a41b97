import type { ApiKeyView, StoredApiKey } from '@runtimectl/core';
import { BEARER_TOKEN_KEY_NAME, type AuthOptions } from './api-keys';

/** A stored key as `GET /keys` shows it: never its token's hash. */
export function viewOfStoredKey(key: StoredApiKey): ApiKeyView {
  return {
    name: key.name,
    scopes: [...key.scopes],
    expires_at_ms: key.expiresAtMs,
    runtimes: key.runtimes && [...key.runtimes],
    conversations: key.conversations && [...key.conversations],
    opened_runtimes: key.openedRuntimes,
    source: 'stored',
    created_at_ms: key.createdAtMs,
  };
}

/** The keys the daemon's configuration holds: the bearer token (an admin key) and `[[http.auth.keys]]`. */
export function viewsOfConfiguredKeys(auth: AuthOptions): ApiKeyView[] {
  const bearer: ApiKeyView[] =
    auth.bearerToken === undefined
      ? []
      : [{ name: BEARER_TOKEN_KEY_NAME, scopes: ['admin'], expires_at_ms: null, runtimes: null, conversations: null, opened_runtimes: false, source: 'config', created_at_ms: null }];
  return [
    ...bearer,
    ...(auth.keys ?? []).map((key): ApiKeyView => ({
      name: key.name,
      scopes: [...key.scopes],
      expires_at_ms: key.expiresAtMs ?? null,
      runtimes: key.runtimes?.ids ? [...key.runtimes.ids] : null,
      conversations: key.runtimes?.conversations ? [...key.runtimes.conversations] : null,
      opened_runtimes: key.runtimes?.openedBy !== undefined,
      source: 'config',
      created_at_ms: null,
    })),
  ];
}
