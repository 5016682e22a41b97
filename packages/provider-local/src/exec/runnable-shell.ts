import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { InvalidRequestError } from '@runtimectl/provider';
import { DEFAULT_PATH } from './command-environment';

/**
 * Refuses a shell that cannot be run, as spawning it directly would (ENOENT/EACCES). Inside a
 * workspace sandbox the shell is found by the sandbox, which shows the host's system directories
 * at their host paths, so the host answers for a system shell before anything starts.
 */
export async function assertRunnableShell(shell: string): Promise<void> {
  const candidates = shell.includes('/') ? [shell] : DEFAULT_PATH.split(':').map((directory) => join(directory, shell));
  let code = 'ENOENT';
  for (const candidate of candidates) {
    try {
      await access(candidate, constants.X_OK);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EACCES') code = 'EACCES';
    }
  }
  throw new InvalidRequestError(`shell ${shell} cannot be run (${code})`, { shell });
}
