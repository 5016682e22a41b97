/** How the store reaches its database. */
export interface PostgresStoreSettings {
  /**
   * `postgres://user:password@host:port/database?…` (libpq-style parameters such as `sslmode`
   * are understood). It holds a password: read it from the environment, never from a file
   * that is checked in, and never log it.
   */
  url: string;
  /**
   * The schema the store's tables live in (created at start when missing), so several
   * installations can share one database. A lower-case identifier. Default `runtimectl`.
   */
  schema?: string;
  /** Connections in the pool. Default 10. */
  poolSize?: number;
  /** Any one statement is cancelled after this long. Default 30000 ms. */
  statementTimeoutMs?: number;
  /** How long opening a connection may take before the attempt fails. Default 5000 ms. */
  connectTimeoutMs?: number;
}

export interface ResolvedPostgresStoreSettings {
  url: string;
  schema: string;
  poolSize: number;
  statementTimeoutMs: number;
  connectTimeoutMs: number;
}

export const POSTGRES_STORE_DEFAULTS = {
  schema: 'runtimectl',
  poolSize: 10,
  statementTimeoutMs: 30_000,
  connectTimeoutMs: 5_000,
} as const;
