import { tokenSha256, type ApiKeyScope } from '@runtimectl/core';
import type { RuntimeScopeConfig } from './runtime-scope';
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
}

/** The key a request authenticated with. */
export interface AuthenticatedKey {
  name: string;
  scopes: readonly ApiKeyScope[];
  runtimes?: RuntimeScopeConfig;
}

export type KeyVerdict = { ok: true; key: AuthenticatedKey } | { ok: false; message: string };

const SHA256_HEX = /^[0-9a-f]{64}$/;
const BEARER_TOKEN_KEY: AuthenticatedKey = { name: 'bearer_token', scopes: ['admin'] };

/** Whether `key` may call a route needing `scope` (see API_KEY_SCOPES). */
export function grants(key: AuthenticatedKey, scope: ApiKeyScope): boolean {
  return scope === 'read' || key.scopes.includes('admin') || key.scopes.includes(scope);
}

/**
 * Checks `Authorization: Bearer <token>` against the bearer token (constant time, see
 * BearerTokenVerifier) and the API keys: a presented token is hashed and looked up by its
 * SHA-256, so nothing about a key's token leaks through timing and the configuration holds no
 * secret. Throws on a configuration that could never admit anyone or holds a key twice.
 */
export class ApiKeyVerifier {
  readonly #bearer: BearerTokenVerifier | undefined;
  readonly #keys = new Map<string, ApiKeyConfig>();

  constructor(options: AuthOptions) {
    if (options.bearerToken === undefined && !options.keys?.length) throw new TypeError('auth needs a bearerToken or at least one key');
    this.#bearer = options.bearerToken === undefined ? undefined : new BearerTokenVerifier(options.bearerToken);
    const names = new Set<string>();
    for (const key of options.keys ?? []) {
      if (!SHA256_HEX.test(key.tokenSha256)) throw new TypeError(`auth key ${key.name}: tokenSha256 must be 64 lowercase hex digits`);
      if (key.scopes.length === 0) throw new TypeError(`auth key ${key.name}: give at least one scope`);
      if (key.runtimes && key.scopes.includes('admin')) throw new TypeError(`auth key ${key.name}: a key scoped to runtimes cannot be admin (admin routes span every runtime)`);
      if (names.has(key.name)) throw new TypeError(`auth key ${key.name}: two keys have this name`);
      if (this.#keys.has(key.tokenSha256)) throw new TypeError(`auth key ${key.name}: another key has the same token`);
      names.add(key.name);
      this.#keys.set(key.tokenSha256, key);
    }
  }

  verify(header: string | undefined, nowMs: number): KeyVerdict {
    if (this.#bearer?.verify(header)) return { ok: true, key: BEARER_TOKEN_KEY };
    const credentials = this.#keys.size === 0 ? undefined : bearerCredentials(header);
    const key = credentials === undefined ? undefined : this.#keys.get(tokenSha256(credentials));
    if (!key) return { ok: false, message: 'missing or invalid bearer token' };
    if (key.expiresAtMs !== undefined && nowMs >= key.expiresAtMs) return { ok: false, message: `the API key ${key.name} has expired` };
    return { ok: true, key: { name: key.name, scopes: key.scopes, ...(key.runtimes ? { runtimes: key.runtimes } : {}) } };
  }
}
