import pg from 'pg';
import { translateConnectionError, unavailableReason } from './connection-errors';

/** How long a caller is told to wait before retrying while the database is unreachable. */
const RETRY_AFTER_MS = 1_000;

/**
 * The pool with the store's two ways in: a single statement, or a transaction on one client.
 * Connection failures become StoreUnavailableError (HTTP 503); a client whose connection broke
 * is destroyed instead of returned, so the pool opens fresh ones once the server is back:
 * reconnecting needs nothing but the next request.
 */
export class PoolDatabase {
  readonly pool: pg.Pool;

  constructor(pool: pg.Pool) {
    this.pool = pool;
    // An idle client whose server went away emits 'error'; the pool has already dropped it.
    // Without a listener that event would crash the daemon.
    pool.on('error', () => undefined);
  }

  async rows<Row extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<Row[]> {
    try {
      return (await this.pool.query<Row>(sql, params)).rows;
    } catch (error) {
      throw translateConnectionError(error, RETRY_AFTER_MS);
    }
  }

  /** Number of rows the statement changed. */
  async run(sql: string, params: unknown[] = []): Promise<number> {
    try {
      return (await this.pool.query(sql, params)).rowCount ?? 0;
    } catch (error) {
      throw translateConnectionError(error, RETRY_AFTER_MS);
    }
  }

  /**
   * Runs `work` between BEGIN and COMMIT on one client; any failure rolls everything back. When
   * the connection breaks on the way (even during COMMIT) the caller gets StoreUnavailableError
   * and nothing was acknowledged.
   */
  async transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      throw translateConnectionError(error, RETRY_AFTER_MS);
    }
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      if (unavailableReason(error) !== undefined) broken = error as Error;
      else await client.query('ROLLBACK').catch((rollbackError: Error) => (broken = rollbackError));
      throw translateConnectionError(error, RETRY_AFTER_MS);
    } finally {
      client.release(broken);
    }
  }
}
