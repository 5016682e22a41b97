// A process the layers crash test kills at a named point (src/crash-points.ts), against the built package.
//   node layers-crash-child.mjs <root> <snapshots> <rounds> <steps> [<point>:<n>]
// An fs provider in layers mode whose chains are flattened past 2 layers. It opens a workspace
// (recorded in <root>/../backend.json), then per round runs a command that writes round.txt and
// appends to all.txt, checkpoints, prints `checkpoint <id> <round>` once it answered and waits for
// the flatten. <steps>, joined by `+`: `busy` leaves a job running from the start (so every
// checkpoint copies the upper directory, the job frozen); `checkout` checks each checkpoint out
// (between `checking-out <backend id>` and `checked-out <backend id>`, left for the caller to
// release); `delete` deletes the first checkpoint last, between `deleting <id>` and `deleted <id>`.
// With <point>:<n> the process SIGKILLs itself at the n-th time it reaches <point>.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { createFsProvider } from '../dist/index.js';

const args = process.argv.slice(2);
const kill = /^[a-z-]+:\d+$/.test(args.at(-1) ?? '') ? args.pop().split(':') : null;
let reached = 0;
const crashPoint = (point) => {
  if (kill && point === kill[0] && ++reached >= Number(kill[1])) process.kill(process.pid, 'SIGKILL');
};
const [root, snapshots, rounds, steps] = args;
const doing = new Set(steps.split('+'));
const provider = createFsProvider({ root, snapshots, snapshotStore: 'layers', flattenPastLayers: 2, crashPoint });
const backendId = `bkd_${randomBytes(16).toString('hex')}`;
const backend = await provider.create({ backendId, runtimeId: 'crash', options: {}, labels: {} });
writeFileSync(join(dirname(root), 'backend.json'), JSON.stringify({ backendId, resource: backend.resource }));
const run = async (command) => {
  const result = await backend.exec({ command, timeoutMs: 20_000, maxOutputBytes: 4096 });
  if (result.exitCode !== 0) throw new Error(Buffer.from(result.stderr).toString());
};
if (doing.has('busy')) await run('sleep 600 >/dev/null 2>&1 &');
const ids = [];
for (let round = 1; round <= Number(rounds); round++) {
  await run(`echo ${round} > round.txt; echo ${round} >> all.txt`);
  const { snapshotId } = await provider.checkpoint(backend, { labels: {} });
  ids.push(snapshotId);
  process.stdout.write(`checkpoint ${snapshotId} ${round}\n`);
  const failed = await provider.flattened();
  if (failed) throw failed;
  if (doing.has('checkout')) {
    const child = `bkd_${randomBytes(16).toString('hex')}`;
    process.stdout.write(`checking-out ${child}\n`);
    await provider.checkout({ backendId: child, runtimeId: 'child', options: {}, labels: {}, snapshotId });
    process.stdout.write(`checked-out ${child}\n`);
  }
}
if (doing.has('delete')) {
  process.stdout.write(`deleting ${ids[0]}\n`);
  await provider.deleteSnapshot(ids[0]);
  process.stdout.write(`deleted ${ids[0]}\n`);
}
