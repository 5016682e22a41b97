import type { BackendCheckpointRef } from '../store/records';

/**
 * Conservative, operation-level change tracking for one backend (not a file diff).
 * Every mutating operation bumps a generation; a snapshot records the generation it started
 * at and only makes the backend clean if nothing wrote since. Clean + a ref ⇒ the next
 * checkpoint reuses the ref without calling the provider.
 */
export class DirtyTracker {
  #generation = 0;
  #cleanGeneration: number | null = null;
  #lastRef: BackendCheckpointRef | null = null;

  /** Seeds a backend created from `ref` (checkout/resume): clean, and its checkpoint reuses `ref`. */
  static seededWith(ref: BackendCheckpointRef): DirtyTracker {
    const tracker = new DirtyTracker();
    tracker.#lastRef = ref;
    tracker.#cleanGeneration = tracker.#generation;
    return tracker;
  }

  markDirty(): void {
    this.#generation += 1;
  }

  get isDirty(): boolean {
    return this.#cleanGeneration !== this.#generation;
  }

  /** The ref the next checkpoint may reuse: set only when clean. */
  get reusableRef(): BackendCheckpointRef | null {
    return this.isDirty ? null : this.#lastRef;
  }

  get lastRef(): BackendCheckpointRef | null {
    return this.#lastRef;
  }

  /** Call before asking the provider for a snapshot; pass the result to `snapshotTaken`. */
  beginSnapshot(): number {
    return this.#generation;
  }

  snapshotTaken(ref: BackendCheckpointRef, startedAtGeneration: number): void {
    this.#lastRef = ref;
    if (this.#generation === startedAtGeneration) this.#cleanGeneration = startedAtGeneration;
  }

  /** The provider snapshot is gone: the next checkpoint must make a fresh one. */
  forgetSnapshot(snapshotId: string): void {
    if (this.#lastRef?.providerSnapshotId === snapshotId) {
      this.#lastRef = null;
      this.#cleanGeneration = null;
    }
  }
}
