import { MAX_SKIPPED_PATHS, type RuntimeCheckpointResult } from '@runtimectl/core';

type SkippedPath = NonNullable<RuntimeCheckpointResult['skipped_paths']>[number];

/**
 * The line under a checkpoint for the special files (FIFOs, sockets, devices) its snapshot does
 * not hold: how many, the first three with their kind. The answer lists at most 100, so a full
 * list may stand for more.
 */
export function skippedPathsLine(skipped: readonly SkippedPath[]): string {
  const count = skipped.length >= MAX_SKIPPED_PATHS ? `${skipped.length} or more` : String(skipped.length);
  const named = skipped.slice(0, 3).map(({ path, kind }) => `${path} (${kind})`);
  const more = skipped.length > 3 ? ', …; --json lists them' : '';
  return `not in the snapshot: ${count} special file${skipped.length === 1 ? '' : 's'} (special files are not kept): ${named.join(', ')}${more}`;
}
