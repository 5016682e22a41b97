import type { RuntimeService } from '@runtimectl/core';
import type { Logger } from 'pino';

/** The start-up warning of a daemon whose store forgets everything on exit. */
export const MEMORY_STORE_WARNING =
  'memory store: runtimes and checkpoints are lost on exit. A graceful shutdown (SIGTERM, SIGINT) closes every runtime and ' +
  'deletes its snapshots at the providers; after a crash they stay there until they time out. Use the sqlite store to keep them.';

export interface NonDurableRelease {
  closedRuntimes: number;
  releasedBackends: number;
  deletedSnapshots: number;
  /** Runtimes that could not be closed, with why (their resources are left at the provider). */
  failures: string[];
}

const PAGE_LIMIT = 500;

async function allRuntimeIds(service: RuntimeService): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await service.list({ limit: PAGE_LIMIT, ...(cursor ? { cursor } : {}) });
    ids.push(...page.runtimes.map((runtime) => runtime.runtime_id));
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  return ids;
}

/**
 * With a store that forgets on exit, the provider resources this process made are known only to
 * it: no later start can find them by its records. So, once requests have finished, every
 * runtime it knows is closed with `keep_snapshots: false` — closed ones too, which deletes the
 * snapshots they kept — releasing live sandboxes and deleting every snapshot no record still
 * needs. A runtime that cannot be closed is reported, and the rest still go.
 */
export async function releaseNonDurableState(service: RuntimeService, logger: Logger): Promise<NonDurableRelease> {
  const release: NonDurableRelease = { closedRuntimes: 0, releasedBackends: 0, deletedSnapshots: 0, failures: [] };
  for (const runtimeId of await allRuntimeIds(service)) {
    try {
      const closed = await service.close({ runtime_id: runtimeId, keep_snapshots: false });
      release.closedRuntimes += closed.closed_runtime_ids.length;
      release.releasedBackends += closed.released_backend ? 1 : 0;
      release.deletedSnapshots += closed.deleted_snapshot_ids.length;
    } catch (error) {
      release.failures.push(`${runtimeId}: ${(error as Error).message}`);
    }
  }
  const summary =
    `shutdown: released what only the memory store knew: ${release.closedRuntimes} runtimes closed, ` +
    `${release.releasedBackends} backends released, ${release.deletedSnapshots} snapshots deleted`;
  if (release.failures.length > 0) logger.warn({ release }, `${summary}; left at the providers: ${release.failures.join('; ')}`);
  else logger.info({ release }, summary);
  return release;
}
