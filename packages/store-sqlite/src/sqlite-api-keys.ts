import { API_KEY_COLUMNS, apiKeyFromRow, apiKeyToRow, type ApiKeyRow, type StoredApiKey } from '@runtimectl/core';
import type Database from 'better-sqlite3';

const KEYS = `SELECT ${API_KEY_COLUMNS.join(', ')} FROM api_keys`;

/** The API key statements (schema version 14), exported for the query-plan test. */
export const API_KEY_STATEMENT_SQL = {
  // A name or token hash already there inserts nothing (changes 0).
  createApiKey: `INSERT INTO api_keys (${API_KEY_COLUMNS.join(', ')}) VALUES (${API_KEY_COLUMNS.map((column) => `@${column}`).join(', ')}) ON CONFLICT DO NOTHING`,
  findApiKey: `${KEYS} WHERE token_sha256 = ?`,
  listApiKeys: `${KEYS} ORDER BY name`,
  deleteApiKey: 'DELETE FROM api_keys WHERE name = ?',
} as const;

type ApiKeyStatements = { [name in keyof typeof API_KEY_STATEMENT_SQL]: Database.Statement };

/** Stored API keys in the store's file. */
export class SqliteApiKeys {
  readonly #statements: ApiKeyStatements;

  constructor(db: Database.Database) {
    this.#statements = Object.fromEntries(Object.entries(API_KEY_STATEMENT_SQL).map(([name, sql]) => [name, db.prepare(sql)])) as ApiKeyStatements;
  }

  create(key: StoredApiKey): boolean {
    return this.#statements.createApiKey.run(apiKeyToRow(key)).changes === 1;
  }

  find(tokenSha256: string): StoredApiKey | undefined {
    const row = this.#statements.findApiKey.get(tokenSha256) as ApiKeyRow | undefined;
    return row && apiKeyFromRow(row);
  }

  list(): StoredApiKey[] {
    return (this.#statements.listApiKeys.all() as ApiKeyRow[]).map(apiKeyFromRow);
  }

  delete(name: string): boolean {
    return this.#statements.deleteApiKey.run(name).changes === 1;
  }
}
