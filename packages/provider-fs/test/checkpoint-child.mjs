// Checkpoints one workspace over and over (changing a file before each) until it is killed.
// Run by crash-safety.test.ts against the built package: argv root, snapshots, workspace name.
import { appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createFsProvider } from '../dist/index.js';

const [root, snapshots, workspace] = process.argv.slice(2);
const provider = createFsProvider({ root, snapshots, isolation: 'none', racyWindowNs: 0n });
const backend = await provider.attach({ backendId: workspace, resource: { workspace } });
for (let round = 0; ; round++) {
  await appendFile(join(backend.workspaceRoot, 'changing.txt'), `round ${round}\n`);
  const { snapshotId } = await provider.checkpoint(backend, { labels: {} });
  process.stdout.write(`${snapshotId}\n`);
}
