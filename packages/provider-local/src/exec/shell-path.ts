import { access, constants } from 'node:fs/promises';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import { InvalidRequestError } from '@runtimectl/provider';

/**
 * The executable `shell` names, looked up in the command's `PATH` when it has no slash, as
 * spawn would. Needed when a wrapper (prlimit) runs the shell: a missing shell must still be
 * `invalid_request` before anything starts, not the wrapper's own exit status.
 */
export async function shellPath(shell: string, cwd: string, env: Record<string, string>): Promise<string> {
  const candidates = shell.includes('/') ? [resolve(cwd, shell)] : (env.PATH ?? '').split(delimiter).filter(isAbsolute).map((dir) => join(dir, shell));
  for (const candidate of candidates) {
    try {
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {
      // try the next one
    }
  }
  throw new InvalidRequestError(`shell ${shell} cannot be run (ENOENT)`, { shell });
}
