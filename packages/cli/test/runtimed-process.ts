import { removeTree } from '@runtimectl/testkit/server-process';
import { startRuntimed as startDaemon, type RuntimedProcess as DaemonProcess } from '../../../apps/daemon/test/runtimed-process';

export interface RuntimedProcess extends Omit<DaemonProcess, 'stop'> {
  /** SIGTERM, wait for the exit, remove the state directory. */
  stop(): Promise<void>;
}

/**
 * The built `runtimed` on a free port in a fresh state directory, started by the daemon's own
 * test helper (apps/daemon/test/runtimed-process.ts; the daemon is a devDependency, so turbo
 * builds it before these tests), with the CLI tests' defaults: `--provider memory` for snapshots
 * (the local provider is enabled too, without them) and quiet logs.
 */
export async function startRuntimed(args: string[] = ['--provider', 'memory'], env: NodeJS.ProcessEnv = {}): Promise<RuntimedProcess> {
  const daemon = await startDaemon(['--log-level', 'warn', ...args], env);
  return {
    ...daemon,
    stop: async () => {
      await daemon.stop();
      removeTree(daemon.stateDir);
    },
  };
}
