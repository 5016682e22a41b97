/**
 * Coordinates provider snapshots between operations on different runtimes: an operation that
 * is about to rely on a snapshot (reuse it, or start a backend from it) holds a lease until its
 * state is committed, and delete refuses while a lease is held. Reuse is refused while a
 * delete is under way, so nothing commits a reference to a snapshot that is being deleted.
 */
export class SnapshotGuard {
  readonly #leases = new Map<string, number>();
  readonly #deleting = new Set<string>();

  /** A release function, or undefined when the snapshot is being deleted. */
  tryLease(providerId: string, snapshotId: string): (() => void) | undefined {
    const key = keyOf(providerId, snapshotId);
    if (this.#deleting.has(key)) return undefined;
    this.#leases.set(key, (this.#leases.get(key) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const count = (this.#leases.get(key) ?? 1) - 1;
      if (count <= 0) this.#leases.delete(key);
      else this.#leases.set(key, count);
    };
  }

  /** false while another operation leases or deletes the snapshot. Pair with `endDelete`. */
  beginDelete(providerId: string, snapshotId: string): boolean {
    const key = keyOf(providerId, snapshotId);
    if (this.#deleting.has(key) || this.#leases.has(key)) return false;
    this.#deleting.add(key);
    return true;
  }

  endDelete(providerId: string, snapshotId: string): void {
    this.#deleting.delete(keyOf(providerId, snapshotId));
  }
}

const keyOf = (providerId: string, snapshotId: string) => `${providerId}\u0000${snapshotId}`;

/** The leases one operation holds; released together when the operation ends. */
export class OperationLeases {
  readonly #releases: Array<() => void> = [];

  hold(release: () => void): void {
    this.#releases.push(release);
  }

  releaseAll(): void {
    for (const release of this.#releases.splice(0)) release();
  }
}
