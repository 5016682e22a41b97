import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe } from 'vitest';
import { symlinkTests } from '../../src/index';
import { createDiskProvider, type DiskProviderFlaws } from './disk-provider';

/** The symlink area against the disk provider with each flaw, and without any (the control). */
const onDisk = (flaws: DiskProviderFlaws) => async () => {
  const root = await mkdtemp(join(tmpdir(), 'runtimectl-disk-mutant-'));
  return { provider: createDiskProvider(root, flaws), cleanup: () => rm(root, { recursive: true, force: true }) };
};

export const SYMLINK_MUTANTS = {
  control: {},
  'lexical jail': { lexicalJail: true },
  'follows links at export': { followAtExport: true },
  'dereferences links in snapshots': { dereferenceSnapshots: true },
} satisfies Record<string, DiskProviderFlaws>;

for (const [name, flaws] of Object.entries(SYMLINK_MUTANTS)) {
  describe(name, () => symlinkTests({ name, capabilities: { posixShell: true }, createProvider: onDisk(flaws) }));
}
