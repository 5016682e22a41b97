// One of two processes sharing a snapshot store (shared-store.test.ts), against the built
// package: argv root, snapshots, rounds. Each round: write the same 300 files as the other
// process, checkpoint, check the snapshot out (every blob present and whole), delete it (which
// collects garbage). Prints "ok <round>" or "broken <round> <message>" per round.
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createFsProvider } from '../dist/index.js';

const [root, snapshots, rounds] = process.argv.slice(2);
const provider = createFsProvider({ root, snapshots, isolation: 'none', racyWindowNs: 0n });
const backend = await provider.create({ backendId: `bkd_${randomBytes(16).toString('hex')}`, runtimeId: 'rt', options: {}, labels: {} });
for (let round = 0; round < Number(rounds); round++) {
  // Half the files keep their content (the stat index reuses their hashes), half change every round.
  await mkdir(join(backend.workspaceRoot, 'd'), { recursive: true });
  for (let i = 0; i < 300; i++) await writeFile(join(backend.workspaceRoot, 'd', `f${i}`), i % 2 ? `same content ${i}\n` : `round ${round} content ${i}\n`);
  const { snapshotId } = await provider.checkpoint(backend, { labels: {} });
  try {
    const copy = await provider.checkout({ backendId: `bkd_${randomBytes(16).toString('hex')}`, runtimeId: 'copy', options: {}, labels: {}, snapshotId });
    await provider.release({ backendId: 'copy', resource: copy.resource });
    process.stdout.write(`ok ${round}\n`);
  } catch (error) {
    process.stdout.write(`broken ${round} ${String(error.cause?.message ?? error.message)}\n`);
  }
  await provider.deleteSnapshot(snapshotId);
}
