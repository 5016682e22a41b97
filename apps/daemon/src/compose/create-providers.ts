import type { BackendProviderV1 } from '@runtimectl/core';
import { createLocalProvider } from '@runtimectl/provider-local';
import { createMemoryProvider } from '@runtimectl/testkit/memory-provider';
import type { ResolvedConfig } from '../config/load-config';

/** The providers the configuration enables, in a stable order. */
export function createProviders(config: ResolvedConfig): BackendProviderV1[] {
  const providers: BackendProviderV1[] = [];
  const local = config.providers.local;
  if (local.enabled) {
    providers.push(
      createLocalProvider({ root: config.localRoot, shell: local.shell, keepWorkspaces: local.keep_workspaces, env: local.env }),
    );
  }
  if (config.providers.memory.enabled) providers.push(createMemoryProvider());
  return providers;
}
