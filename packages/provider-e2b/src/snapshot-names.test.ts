import { describe, expect, it } from 'vitest';
import { bareSnapshotName, snapshotNameFor, snapshotNamePrefix } from './snapshot-names';

describe('snapshot names', () => {
  it('are made of the installation and ref id, in E2B alias characters, under 128 characters', () => {
    const name = snapshotNameFor({ runtimectl_installation: 'inst_0123456789abcdef0123456789abcdef', runtimectl_ref_id: 'bcp_fedcba9876543210fedcba9876543210' });
    expect(name).toMatch(/^rtctl-[0-9a-f]{12}-inst-0123456789abcdef012-bcp-fedcba9876543210fedcba9876543210$/);
    expect(name!.length).toBeLessThanOrEqual(128);
    expect(name!.startsWith(snapshotNamePrefix('inst_0123456789abcdef0123456789abcdef'))).toBe(true);
  });

  it('keep installations apart even when their readable forms are equal', () => {
    expect(snapshotNamePrefix('Team_A')).not.toBe(snapshotNamePrefix('team-a'));
    expect(snapshotNamePrefix('Team_A').startsWith(snapshotNamePrefix('team-a'))).toBe(false);
  });

  it('leave a snapshot unnamed when no installation label says whose it is', () => {
    expect(snapshotNameFor({})).toBeUndefined();
  });

  it('read the alias out of E2B’s qualified names', () => {
    expect(bareSnapshotName('team/rtctl-abc:default')).toBe('rtctl-abc');
    expect(bareSnapshotName('rtctl-abc:v2')).toBe('rtctl-abc');
    expect(bareSnapshotName('abc123')).toBe('abc123');
  });
});
