import { homedir } from 'node:os';
import { join } from 'node:path';

/** $XDG_STATE_HOME/runtimectl, else ~/.local/state/runtimectl. */
export function defaultStateDir(env: NodeJS.ProcessEnv): string {
  const home = env.HOME || homedir();
  const base = env.XDG_STATE_HOME && env.XDG_STATE_HOME.startsWith('/') ? env.XDG_STATE_HOME : join(home, '.local', 'state');
  return join(base, 'runtimectl');
}
