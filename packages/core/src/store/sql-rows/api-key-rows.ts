import type { StoredApiKey } from '../api-key-store';
import type { ApiKeyScope } from '../../wire/api-keys';

/** The `api_keys` columns, in insert order. Lists are JSON text; a driver may hand 64-bit integers back as strings. */
export const API_KEY_COLUMNS = ['name', 'token_sha256', 'scopes', 'expires_at_ms', 'runtimes', 'conversations', 'opened_runtimes', 'created_at_ms'] as const;

export interface ApiKeyRow {
  name: string;
  token_sha256: string;
  scopes: string;
  expires_at_ms: number | string | null;
  runtimes: string | null;
  conversations: string | null;
  /** 0 or 1. */
  opened_runtimes: number;
  created_at_ms: number | string;
}

const listOrNull = (list: readonly string[] | null): string | null => (list === null ? null : JSON.stringify(list));

export function apiKeyToRow(key: StoredApiKey): ApiKeyRow {
  return {
    name: key.name,
    token_sha256: key.tokenSha256,
    scopes: JSON.stringify(key.scopes),
    expires_at_ms: key.expiresAtMs,
    runtimes: listOrNull(key.runtimes),
    conversations: listOrNull(key.conversations),
    opened_runtimes: key.openedRuntimes ? 1 : 0,
    created_at_ms: key.createdAtMs,
  };
}

export function apiKeyFromRow(row: ApiKeyRow): StoredApiKey {
  return {
    name: row.name,
    tokenSha256: row.token_sha256,
    scopes: JSON.parse(row.scopes) as ApiKeyScope[],
    expiresAtMs: row.expires_at_ms === null ? null : Number(row.expires_at_ms),
    runtimes: row.runtimes === null ? null : (JSON.parse(row.runtimes) as string[]),
    conversations: row.conversations === null ? null : (JSON.parse(row.conversations) as string[]),
    openedRuntimes: Number(row.opened_runtimes) === 1,
    createdAtMs: Number(row.created_at_ms),
  };
}
