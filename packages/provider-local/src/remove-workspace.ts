import { execFile } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { promisify } from 'node:util';
import { ProviderError } from '@runtimectl/provider';
import { errorCode } from './fs-errors';

const execFileAsync = promisify(execFile);

/** Bound on the fallback removal: a tree is removed in seconds, never waited on forever. */
const REMOVE_COMMAND_TIMEOUT_MS = 120_000;

/**
 * Removes a directory and everything in it, at any depth. Node's recursive removal works by
 * absolute path, so a tree a command built deeper than PATH_MAX fails with ENAMETOOLONG;
 * `rm -rf` walks with descriptors and removes it.
 */
export async function removeTree(directory: string): Promise<void> {
  try {
    await rm(directory, { recursive: true, force: true, maxRetries: 3, retryDelay: 50 });
    return;
  } catch (error) {
    if (errorCode(error) !== 'ENAMETOOLONG') throw error;
  }
  await execFileAsync('rm', ['-rf', '--', directory], { timeout: REMOVE_COMMAND_TIMEOUT_MS });
}

/**
 * Removes a workspace directory (`removeTree`). A failure is a `ProviderError` whose message
 * names no host path (Node's own message, in the cause, does).
 */
export async function removeWorkspace(directory: string, providerId: string): Promise<void> {
  try {
    await removeTree(directory);
  } catch (error) {
    throw new ProviderError(providerId, 'release', `could not remove the workspace directory (${errorCode(error) ?? 'error'})`, error);
  }
}
