import type { LeaseMode, RuntimeFence } from '../store/fleet-store';

/** Ends a hold on a snapshot; never throws. */
export type SnapshotRelease = () => Promise<void>;

/** The leases the guard takes: the fleet's runtime leases (see RuntimeLeases). */
export interface GuardLeases {
  tryAcquire(key: string, mode: LeaseMode): Promise<RuntimeFence | undefined>;
  release(fence: RuntimeFence): Promise<void>;
}

/**
 * The lease key of a provider snapshot: no runtime id contains `/` (RUNTIME_ID), so it never
 * meets a runtime's lease.
 */
export const snapshotLeaseKey = (providerId: string, snapshotId: string) => `snapshot/${providerId}/${snapshotId}`;

/**
 * Coordinates provider snapshots between operations on different runtimes, across the fleet: an
 * operation that is about to rely on a snapshot (reuse it, or start a backend from it) holds a
 * lease until its state is committed, and a delete refuses while a lease is held. Reuse is
 * refused while a delete is under way, so nothing commits a reference to a snapshot that is
 * being deleted. The leases are the store's (a snapshot's key in `checkout` mode to rely on it,
 * shared by many; `exclusive` to delete it), so an operation on one node keeps a snapshot from a
 * delete on another, and a dead node's holds lapse with its other leases.
 */
export class SnapshotGuard {
  constructor(private readonly leases: GuardLeases) {}

  /** A release function, or undefined when the snapshot is being deleted. */
  tryLease(providerId: string, snapshotId: string): Promise<SnapshotRelease | undefined> {
    return this.#hold(providerId, snapshotId, 'checkout');
  }

  /** The delete's end (call it when done), or undefined while another operation leases or deletes the snapshot. */
  beginDelete(providerId: string, snapshotId: string): Promise<SnapshotRelease | undefined> {
    return this.#hold(providerId, snapshotId, 'exclusive');
  }

  async #hold(providerId: string, snapshotId: string, mode: LeaseMode): Promise<SnapshotRelease | undefined> {
    const fence = await this.leases.tryAcquire(snapshotLeaseKey(providerId, snapshotId), mode);
    if (!fence) return undefined;
    let released: Promise<void> | undefined;
    return () => (released ??= this.leases.release(fence));
  }
}

/** The leases one operation holds; released together when the operation ends. */
export class OperationLeases {
  readonly #releases: SnapshotRelease[] = [];

  hold(release: SnapshotRelease): void {
    this.#releases.push(release);
  }

  async releaseAll(): Promise<void> {
    await Promise.all(this.#releases.splice(0).map((release) => release()));
  }
}
