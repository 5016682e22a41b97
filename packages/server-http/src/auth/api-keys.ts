import { tokenSha256, type ApiKeyScope, type ApiKeyStore, type StoredApiKey } from '@runtimectl/core';
import { runtimeScopeOf, type RuntimeScopeConfig } from './runtime-scope';
import { bearerCredentials, BearerTokenVerifier } from './bearer-auth';

/** One API key as configured: the token is never held, only its SHA-256. */
export interface ApiKeyConfig {
  /** Names the key in logs and in a 403's `details.key` (never the token). */
  name: string;
  /** SHA-256 of the token, 64 lowercase hex digits. */
  tokenSha256: string;
  scopes: readonly ApiKeyScope[];
  /** From then on the key is refused (401). */
  expiresAtMs?: number;
  /** Only these runtimes (and their descendants); absent: every runtime. Not with `admin`. */
  runtimes?: RuntimeScopeConfig;
}

/** Auth on: the bearer token (an `admin` key named `bearer_token`), API keys, or both. */
export interface AuthOptions {
  bearerToken?: string;
  keys?: readonly ApiKeyConfig[];
  /**
   * Where keys created at run time live (`POST /keys`, the daemon's store): a token the
   * configuration does not know is looked up there by its SHA-256, at every request, so a key
   * revoked on any node of a fleet is refused by every node at once. Without it `/keys` can list
   * the configured keys but neither create nor revoke one.
   */
  store?: ApiKeyStore;
}

/** The key a request authenticated with. */
export interface AuthenticatedKey {
  name: string;
  scopes: readonly ApiKeyScope[];
  runtimes?: RuntimeScopeConfig;
}

export type KeyVerdict = { ok: true; key: AuthenticatedKey } | { ok: false; message: string };

const SHA256_HEX = /^[0-9a-f]{64}$/;
/** The name the bearer token goes by as a key (in a 403, in `GET /keys`): no other key may take it. */
export const BEARER_TOKEN_KEY_NAME = 'bearer_token';
const BEARER_TOKEN_KEY: AuthenticatedKey = { name: BEARER_TOKEN_KEY_NAME, scopes: ['admin'] };
const INVALID: KeyVerdict = { ok: false, message: 'missing or invalid bearer token' };

/** A key's verdict at `nowMs`: refused once it has expired. */
function verdictOf(key: AuthenticatedKey, expiresAtMs: number | null | undefined, nowMs: number): KeyVerdict {
  if (expiresAtMs !== undefined && expiresAtMs !== null && nowMs >= expiresAtMs) return { ok: false, message: `the API key ${key.name} has expired` };
  return { ok: true, key };
}

/** A stored key as a request holds it. */
function storedKeyOf(stored: StoredApiKey): AuthenticatedKey {
  const runtimes = runtimeScopeOf(stored.name, stored);
  return { name: stored.name, scopes: stored.scopes, ...(runtimes ? { runtimes } : {}) };
}

/** Whether `key` may call a route needing `scope` (see API_KEY_SCOPES). */
export function grants(key: AuthenticatedKey, scope: ApiKeyScope): boolean {
  return scope === 'read' || key.scopes.includes('admin') || key.scopes.includes(scope);
}

/**
 * Checks `Authorization: Bearer <token>` against the bearer token (constant time, see
 * BearerTokenVerifier), the configured API keys and the stored ones: a presented token is hashed
 * and looked up by its SHA-256, so nothing about a key's token leaks through timing and neither
 * the configuration nor the store holds a secret. The configuration answers at once; only a token
 * it does not know costs a store lookup. Throws on a configuration that could never admit anyone
 * or holds a key twice.
 */
export class ApiKeyVerifier {
  readonly #bearer: BearerTokenVerifier | undefined;
  readonly #keys = new Map<string, ApiKeyConfig>();
  readonly #store: ApiKeyStore | undefined;

  constructor(options: AuthOptions) {
    if (options.bearerToken === undefined && !options.keys?.length) throw new TypeError('auth needs a bearerToken or at least one key');
    this.#bearer = options.bearerToken === undefined ? undefined : new BearerTokenVerifier(options.bearerToken);
    this.#store = options.store;
    const names = new Set<string>(this.#bearer ? [BEARER_TOKEN_KEY_NAME] : []);
    for (const key of options.keys ?? []) {
      if (!SHA256_HEX.test(key.tokenSha256)) throw new TypeError(`auth key ${key.name}: tokenSha256 must be 64 lowercase hex digits`);
      if (key.scopes.length === 0) throw new TypeError(`auth key ${key.name}: give at least one scope`);
      if (key.runtimes && key.scopes.includes('admin')) throw new TypeError(`auth key ${key.name}: a key scoped to runtimes cannot be admin (admin routes span every runtime)`);
      if (names.has(key.name)) throw new TypeError(`auth key ${key.name}: two keys have this name${key.name === BEARER_TOKEN_KEY_NAME ? ' (the bearer token goes by it)' : ''}`);
      if (this.#keys.has(key.tokenSha256)) throw new TypeError(`auth key ${key.name}: another key has the same token`);
      names.add(key.name);
      this.#keys.set(key.tokenSha256, key);
    }
  }

  /** The configured keys' names (the bearer token's included): a stored key cannot take one. */
  configuredNames(): Set<string> {
    return new Set([...(this.#bearer ? [BEARER_TOKEN_KEY_NAME] : []), ...[...this.#keys.values()].map((key) => key.name)]);
  }

  /** A promise only when the store must be asked. */
  verify(header: string | undefined, nowMs: number): KeyVerdict | Promise<KeyVerdict> {
    if (this.#bearer?.verify(header)) return { ok: true, key: BEARER_TOKEN_KEY };
    const credentials = this.#keys.size === 0 && !this.#store ? undefined : bearerCredentials(header);
    if (credentials === undefined) return INVALID;
    const hash = tokenSha256(credentials);
    const key = this.#keys.get(hash);
    if (key) return verdictOf({ name: key.name, scopes: key.scopes, ...(key.runtimes ? { runtimes: key.runtimes } : {}) }, key.expiresAtMs, nowMs);
    if (!this.#store) return INVALID;
    return this.#store.findApiKey(hash).then((stored) => (stored ? verdictOf(storedKeyOf(stored), stored.expiresAtMs, nowMs) : INVALID));
  }
}
