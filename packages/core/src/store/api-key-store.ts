import type { ApiKeyScope } from '../wire/api-keys';

/**
 * An API key created at run time (`POST /api/v1/keys`). The store holds the SHA-256 of its token,
 * never the token; every node of a fleet reads the same keys, so a key works on each at once and
 * a revoked one (deleted) is refused by each at its next request.
 */
export interface StoredApiKey {
  name: string;
  /** 64 lowercase hex digits; unique. */
  tokenSha256: string;
  scopes: readonly ApiKeyScope[];
  expiresAtMs: number | null;
  /** null: every runtime. */
  runtimes: readonly string[] | null;
  /** null: every conversation. */
  conversations: readonly string[] | null;
  /** Whether it reaches the runtimes it opened itself (and their branches). */
  openedRuntimes: boolean;
  createdAtMs: number;
}

export interface ApiKeyStore {
  /** Adds a key; false (and nothing written) when a key with this name or token hash exists. */
  createApiKey(key: StoredApiKey): Promise<boolean>;
  /** The key whose token has this SHA-256, or undefined. */
  findApiKey(tokenSha256: string): Promise<StoredApiKey | undefined>;
  /** Every stored key, by name. */
  listApiKeys(): Promise<StoredApiKey[]>;
  /** Deletes a key by name; whether one was there. */
  deleteApiKey(name: string): Promise<boolean>;
}
