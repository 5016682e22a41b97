// Removes a directory a daemon used, mounts and all: the fs provider in layers mode leaves its
// live workspaces mounted (testkit's removeTree detaches them first).
import { pathToFileURL } from 'node:url';
import { repoPath } from './processes.mjs';

/** `removeTree(directory)` from @runtimectl/testkit/server-process (built). */
export async function removeTree(directory) {
  const { removeTree: remove } = await import(pathToFileURL(repoPath('packages', 'testkit', 'dist', 'server-process.js')).href);
  remove(directory);
}
