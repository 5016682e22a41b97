import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { removeTree } from '@runtimectl/testkit/server-process';

/**
 * Directories a test file made, removed once it is done (its own afterAll hooks, which stop its
 * daemons, run first). A daemon on a durable store leaves its sandboxes running for its next
 * start, and each sandbox's init lives until its workspace directory is gone: left behind, every
 * run of the suite added idle sandboxes and a thousand directories to the machine. Live
 * workspaces of the fs provider in layers mode are overlay mounts, detached before the removal.
 */
const made: string[] = [];
afterAll(() => {
  for (const directory of made.splice(0)) removeTree(directory);
});

/** A new directory under the system's temporary directory (`prefix` and a random suffix), removed after the test file. */
export function temporaryDirectory(prefix: string): string {
  const directory = mkdtempSync(join(tmpdir(), prefix));
  made.push(directory);
  return directory;
}
