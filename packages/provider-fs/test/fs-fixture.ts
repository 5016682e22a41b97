import { mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { removeTree } from '@runtimectl/testkit/server-process';

/** Temporary directories made by a test, removed after it (what a failed test left mounted in them detached first). */
export function useTemporaryDirectories(): (label: string) => Promise<string> {
  const made: string[] = [];
  afterEach(async () => {
    for (const directory of made.splice(0)) removeTree(directory);
  });
  return async (label) => {
    const directory = await mkdtemp(join(tmpdir(), `runtimectl-fs-${label}-`));
    made.push(directory);
    return directory;
  };
}

/** Every stored blob file under a blob store directory (shard/name), sorted. */
export async function blobFilesIn(directory: string): Promise<string[]> {
  const files: string[] = [];
  for (const shard of await readdir(directory).catch(() => [] as string[])) {
    if (shard.startsWith('.')) continue;
    for (const name of await readdir(join(directory, shard))) if (!name.startsWith('.')) files.push(`${shard}/${name}`);
  }
  return files.sort();
}
