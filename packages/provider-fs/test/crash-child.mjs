// A process the crash tests kill at a named point (src/crash-points.ts), against the built package.
//   node crash-child.mjs checkpoint <workspace> <snapshots> <rounds> [<point>:<n>]
//     checkpoints the workspace <rounds> times (appending to changing.txt before each), printing each snapshot id
//   node crash-child.mjs delete <snapshots> <snapshot id>... [<point>:<n>]
//     deletes the snapshots in turn (each delete collects garbage)
// With <point>:<n> the process SIGKILLs itself at the n-th time it reaches <point>.
import { appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SnapshotStore } from '../dist/index.js';

const args = process.argv.slice(2);
const kill = /^[a-z-]+:\d+$/.test(args.at(-1) ?? '') ? args.pop().split(':') : null;
let reached = 0;
const crashPoint = (point) => {
  if (kill && point === kill[0] && ++reached >= Number(kill[1])) process.kill(process.pid, 'SIGKILL');
};
const [mode, ...rest] = args;
if (mode === 'checkpoint') {
  const [workspace, snapshots, rounds] = rest;
  const store = new SnapshotStore(snapshots, { racyWindowNs: 0n, crashPoint });
  for (let round = 0; round < Number(rounds); round++) {
    await appendFile(join(workspace, 'changing.txt'), `round ${round} ${process.pid}\n`);
    const { snapshotId } = await store.checkpoint(workspace, 'ws', { labels: {} });
    process.stdout.write(`${snapshotId}\n`);
  }
} else {
  const [snapshots, ...ids] = rest;
  const store = new SnapshotStore(snapshots, { crashPoint });
  for (const id of ids) await store.deleteSnapshot(id);
}
