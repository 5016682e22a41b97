import { API_KEY_COLUMNS, apiKeyFromRow, apiKeyToRow, type ApiKeyRow, type StoredApiKey } from '@runtimectl/core';
import type { PoolDatabase } from './pool-database';
import { quoted } from './sql-names';

function apiKeyStatements(schema: string) {
  const keys = `${quoted(schema)}.api_keys`;
  const columns = API_KEY_COLUMNS.join(', ');
  return {
    // A name or token hash already there inserts nothing (0 rows).
    create: `INSERT INTO ${keys} (${columns}) VALUES (${API_KEY_COLUMNS.map((_, index) => `$${index + 1}`).join(', ')}) ON CONFLICT DO NOTHING`,
    find: `SELECT ${columns} FROM ${keys} WHERE token_sha256 = $1`,
    list: `SELECT ${columns} FROM ${keys} ORDER BY name`,
    delete: `DELETE FROM ${keys} WHERE name = $1`,
  };
}

/** Stored API keys (schema version 12): every node of a fleet reads the same ones. */
export class PostgresApiKeys {
  readonly #db: PoolDatabase;
  readonly #sql: ReturnType<typeof apiKeyStatements>;

  constructor(db: PoolDatabase, schema: string) {
    this.#db = db;
    this.#sql = apiKeyStatements(schema);
  }

  async create(key: StoredApiKey): Promise<boolean> {
    const row = apiKeyToRow(key);
    return (await this.#db.run(this.#sql.create, API_KEY_COLUMNS.map((column) => row[column]))) === 1;
  }

  async find(tokenSha256: string): Promise<StoredApiKey | undefined> {
    const [row] = await this.#db.rows<ApiKeyRow>(this.#sql.find, [tokenSha256]);
    return row && apiKeyFromRow(row);
  }

  async list(): Promise<StoredApiKey[]> {
    return (await this.#db.rows<ApiKeyRow>(this.#sql.list)).map(apiKeyFromRow);
  }

  async delete(name: string): Promise<boolean> {
    return (await this.#db.run(this.#sql.delete, [name])) === 1;
  }
}
