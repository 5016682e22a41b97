import { execFile } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { promisify } from 'node:util';
import { ProviderError } from '@runtimectl/provider';
import { errorCode } from './fs-errors';

const execFileAsync = promisify(execFile);

/** Bound on the fallback removal: a workspace is removed in seconds, never waited on forever. */
const REMOVE_COMMAND_TIMEOUT_MS = 120_000;

/**
 * Removes a workspace directory and everything in it. Node's recursive removal works by absolute
 * path, so a tree a command built deeper than PATH_MAX fails with ENAMETOOLONG; `rm -rf` walks
 * with descriptors and removes it. A failure is a `ProviderError` whose message names no host
 * path (Node's own message, in the cause, does).
 */
export async function removeWorkspace(directory: string, providerId: string): Promise<void> {
  try {
    await rm(directory, { recursive: true, force: true, maxRetries: 3, retryDelay: 50 });
    return;
  } catch (error) {
    if (errorCode(error) !== 'ENAMETOOLONG') throw removalFailed(error, providerId);
  }
  try {
    await execFileAsync('rm', ['-rf', '--', directory], { timeout: REMOVE_COMMAND_TIMEOUT_MS });
  } catch (error) {
    throw removalFailed(error, providerId);
  }
}

function removalFailed(error: unknown, providerId: string): ProviderError {
  return new ProviderError(providerId, 'release', `could not remove the workspace directory (${errorCode(error) ?? 'error'})`, error);
}
