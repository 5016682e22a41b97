import { MemoryRuntimeStore, type RuntimeStore } from '@runtimectl/core';
import { openPostgresStore } from '@runtimectl/store-postgres';
import { createSqliteStore } from '@runtimectl/store-sqlite';
import type { ResolvedConfig } from '../config/load-config';

/** The store the configuration names: SQLite in the state directory unless told otherwise. */
export async function createStore(config: ResolvedConfig): Promise<RuntimeStore> {
  switch (config.store.kind) {
    case 'memory':
      return new MemoryRuntimeStore();
    case 'sqlite':
      return createSqliteStore({ path: config.storePath, synchronous: config.store.synchronous });
    case 'postgres':
      return openPostgresStore({
        url: config.databaseUrl!,
        schema: config.store.schema,
        poolSize: config.store.pool_size,
        statementTimeoutMs: config.store.statement_timeout_ms,
        connectTimeoutMs: config.store.connect_timeout_ms,
      });
  }
}
