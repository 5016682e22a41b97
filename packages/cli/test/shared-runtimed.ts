import { createRuntimectlClient, type RuntimectlClient } from '@runtimectl/client';
import { afterAll, beforeAll } from 'vitest';
import type { CliRunOptions } from './cli-process';
import { startRuntimed, type RuntimedProcess } from './runtimed-process';

export interface SharedRuntimed {
  readonly daemon: RuntimedProcess;
  /** For setup: the commands under test go through the CLI. */
  readonly client: RuntimectlClient;
  /** Run options pointing the CLI at this daemon (RUNTIMECTL_URL). */
  readonly at: CliRunOptions;
  /** Opens a runtime through the client; concurrent tests each use their own. */
  openRuntime(runtimeId: string, provider?: string): Promise<void>;
}

/**
 * One daemon for the whole test file, started before and stopped after it: with the memory
 * provider as its default, or with `args` (`[]`: a daemon on its defaults, the fs provider) and
 * `env` (RUNTIMECTL_* settings).
 */
export function useSharedRuntimed(args?: string[], env?: NodeJS.ProcessEnv): SharedRuntimed {
  let daemon: RuntimedProcess | undefined;
  let client: RuntimectlClient | undefined;
  beforeAll(async () => {
    daemon = await startRuntimed(args, env);
    client = createRuntimectlClient({ baseUrl: daemon.url });
  });
  afterAll(() => daemon?.stop());
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the shared runtimed is not started yet (use it inside tests or hooks)');
    return value;
  };
  return {
    get daemon() {
      return started(daemon);
    },
    get client() {
      return started(client);
    },
    get at() {
      return { url: started(daemon).url };
    },
    async openRuntime(runtimeId, provider) {
      await started(client).open({ runtime_id: runtimeId, conversation_id: 'c', sender_id: 's', ...(provider ? { provider } : {}) });
    },
  };
}
