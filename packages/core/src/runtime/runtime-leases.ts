import { SessionBusyError } from '../errors/runtime-state-errors';
import type { LeaseMode, LeaseStore, RuntimeFence } from '../store/fleet-store';

/**
 * This node's hold on runtimes: leases in the store (the fleet's one lock per runtime), with
 * the conflict rules of `leaseConflict`. Data operations (exec, files, search) share a runtime;
 * control operations (checkpoint, pause, resume, update, close) hold it exclusively; a checkout
 * holds its source in `checkout` mode. Nothing waits: a conflicting request fails fast with
 * `SessionBusyError`. A lease lapses `ttlMs` after it was granted unless the node's heartbeat
 * renews it, so a dead node blocks nothing for long.
 */
export class RuntimeLeases {
  /** Releases the store did not take (unreachable): retried, or a heartbeat would renew them for ever. */
  readonly #unreleased = new Map<string, RuntimeFence>();

  constructor(
    private readonly store: LeaseStore,
    readonly holderId: string,
    readonly ttlMs: number,
  ) {}

  async acquire(runtimeId: string, mode: LeaseMode): Promise<RuntimeFence> {
    const grant = await this.store.acquireLease({ runtimeId, holderId: this.holderId, mode, ttlMs: this.ttlMs });
    if (!grant.granted) throw new SessionBusyError(runtimeId, grant.conflict);
    return grant.fence;
  }

  /** A lease on any key (a snapshot's: SnapshotGuard), or undefined on conflict. */
  async tryAcquire(key: string, mode: LeaseMode): Promise<RuntimeFence | undefined> {
    const grant = await this.store.acquireLease({ runtimeId: key, holderId: this.holderId, mode, ttlMs: this.ttlMs });
    return grant.granted ? grant.fence : undefined;
  }

  /** Ends a lease; never throws (a release the store did not take is retried by `retryReleases`). */
  async release(fence: RuntimeFence): Promise<void> {
    try {
      await this.store.releaseLease(fence);
      this.#unreleased.delete(fence.token);
    } catch {
      this.#unreleased.set(fence.token, fence);
    }
  }

  /** Retries the releases that failed (the membership's heartbeat calls it). */
  async retryReleases(): Promise<void> {
    for (const fence of [...this.#unreleased.values()]) await this.release(fence);
  }

  /** Runtimes an operation of their own holds, on any node (their `running` status). */
  async busyRuntimeIds(): Promise<ReadonlySet<string>> {
    return new Set(await this.store.listBusyRuntimeIds());
  }
}
