import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';

/** Temporary directories made by a test, removed after it. */
export function useTemporaryDirectories(): (label: string) => Promise<string> {
  const made: string[] = [];
  afterEach(async () => {
    for (const directory of made.splice(0)) await rm(directory, { recursive: true, force: true });
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
