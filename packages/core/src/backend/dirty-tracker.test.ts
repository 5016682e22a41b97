import { describe, expect, it } from 'vitest';
import type { BackendCheckpointRef } from '../store/records';
import { DirtyTracker } from './dirty-tracker';

const ref = (snapshotId: string): BackendCheckpointRef => ({
  refId: `bcp_${snapshotId}`,
  providerId: 'memory',
  sourceBackendId: 'bkd_1',
  providerSnapshotId: snapshotId,
  providerSnapshotNames: [],
  snapshotDeletedAtMs: null,
  createdAtMs: 1,
});

describe('DirtyTracker', () => {
  it('a brand-new backend has nothing to reuse', () => {
    expect(new DirtyTracker().reusableRef).toBeNull();
  });

  it('a snapshot with no write since makes the backend clean and its ref reusable', () => {
    const tracker = new DirtyTracker();
    tracker.snapshotTaken(ref('s1'), tracker.beginSnapshot());
    expect(tracker.isDirty).toBe(false);
    expect(tracker.reusableRef?.providerSnapshotId).toBe('s1');
  });

  it('a write that lands while the snapshot is being taken keeps the backend dirty', () => {
    const tracker = new DirtyTracker();
    const startedAt = tracker.beginSnapshot();
    tracker.markDirty();
    tracker.snapshotTaken(ref('s1'), startedAt);
    expect(tracker.isDirty).toBe(true);
    expect(tracker.reusableRef).toBeNull();
    expect(tracker.lastRef?.providerSnapshotId).toBe('s1');
  });

  it('a backend seeded from a checkout starts clean with the source ref', () => {
    const tracker = DirtyTracker.seededWith(ref('s9'));
    expect(tracker.reusableRef?.providerSnapshotId).toBe('s9');
    tracker.markDirty();
    expect(tracker.reusableRef).toBeNull();
  });

  it('forgetting a deleted snapshot forces the next checkpoint to make a fresh one', () => {
    const tracker = new DirtyTracker();
    tracker.snapshotTaken(ref('s1'), tracker.beginSnapshot());
    tracker.forgetSnapshot('other');
    expect(tracker.reusableRef).not.toBeNull();
    tracker.forgetSnapshot('s1');
    expect(tracker.reusableRef).toBeNull();
    expect(tracker.isDirty).toBe(true);
  });
});
