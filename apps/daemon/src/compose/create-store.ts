import { MemoryRuntimeStore, type RuntimeStore } from '@runtimectl/core';
import { ConfigError } from '../config/config-error';
import type { ResolvedConfig } from '../config/load-config';

/** The store the configuration names. */
export async function createStore(config: ResolvedConfig): Promise<RuntimeStore> {
  switch (config.store.kind) {
    case 'memory':
      return new MemoryRuntimeStore();
    case 'sqlite':
      throw new ConfigError('store.kind: sqlite arrives with @runtimectl/store-sqlite; use memory for now');
  }
}
