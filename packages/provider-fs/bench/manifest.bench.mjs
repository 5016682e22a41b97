// Content manifests (issue 22), measured on the fs provider's 10,000-file / 200 MiB workspace
// (bench/workspace.mjs), and the diff they serve:
//   - manifest cost at checkpoint: after changing one 1 MiB file, the fs checkpoint vs the
//     manifest core records from it (the snapshot carries its manifest from the checkpoint's own
//     walk: only the Merkle trees are built); beside it what a second walk would cost
//     (backend.manifest() from the stat index, as core did before snapshots carried it) and the
//     manifest with every file hashed (no index: what the local provider pays)
//   - diff of two checkpoints differing in one file, at 10,000 files: RuntimeService.diff over
//     the memory provider and the memory store (the Merkle walk and the store reads it makes)
// Not a test: `node bench/manifest.bench.mjs [--json out.json]` after building the workspace.
// Environment: BENCH_ROUNDS (default 3), BENCH_DIFFS (default 200), BENCH_DIR (scratch parent).
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildTrees, MemoryRuntimeStore, RuntimeService } from '@runtimectl/core';
import { workspaceManifest } from '@runtimectl/provider-local';
import { createMemoryProvider } from '@runtimectl/testkit';
import { createFsProvider } from '../dist/index.js';
import { log, median, timed } from './timing.mjs';
import { changeOneMiBFile, makeWorkspace, WORKSPACE } from './workspace.mjs';

const { values: args } = parseArgs({ options: { json: { type: 'string' } } });
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const DIFFS = Number(process.env.BENCH_DIFFS ?? 200);

async function manifestCost(scratch) {
  const samples = { checkpoint: [], manifest: [], secondWalk: [], rehashAll: [] };
  const root = join(scratch, 'workspaces');
  for (let round = 0; round < ROUNDS; round++) {
    const fs = createFsProvider({ root, snapshots: join(scratch, `store-${round}`), isolation: 'none', workspaceQuotaBytes: 0 });
    const backendId = `bkd_${randomBytes(16).toString('hex')}`;
    const backend = await fs.create({ backendId, runtimeId: 'bench', options: {}, labels: {} });
    if (round === 0) log('writing the workspace…');
    const made = await makeWorkspace(backend.workspaceRoot, { seed: 21 + round });
    await fs.checkpoint(backend, { labels: {} });
    // Past the stat index's racily-clean window, as a checkpoint minutes after the last one is.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await changeOneMiBFile(backend.workspaceRoot, made.oneMiB[0]);
    const checkpoint = await timed(() => fs.checkpoint(backend, { labels: {} }));
    samples.checkpoint.push(checkpoint.ms);
    samples.manifest.push((await timed(async () => buildTrees(checkpoint.result.manifest))).ms);
    samples.secondWalk.push((await timed(async () => buildTrees(await backend.manifest()))).ms);
    samples.rehashAll.push((await timed(async () => buildTrees(await workspaceManifest(backend.workspaceRoot)))).ms);
    await fs.release({ backendId, resource: backend.resource });
    log(`round ${round + 1}: checkpoint ${samples.checkpoint.at(-1).toFixed(0)} ms, manifest ${samples.manifest.at(-1).toFixed(0)} ms, a second walk ${samples.secondWalk.at(-1).toFixed(0)} ms, every file hashed ${samples.rehashAll.at(-1).toFixed(0)} ms`);
  }
  return samples;
}

async function diffLatency() {
  const service = new RuntimeService({ store: new MemoryRuntimeStore(), providers: [createMemoryProvider()], defaultProvider: 'memory' });
  const { runtime } = await service.open({ conversation_id: 'bench', sender_id: 'bench' });
  const id = runtime.runtime_id;
  const content = (text) => Buffer.from(text).toString('base64');
  for (let index = 0; index < WORKSPACE.files; index++) {
    await service.writeFile({ runtime_id: id, path: `d${Math.floor(index / 100)}/f${index % 100}.txt`, content_base64: content(`file ${index}`) });
  }
  const first = await service.checkpoint({ runtime_id: id });
  await service.writeFile({ runtime_id: id, path: 'd42/f7.txt', content_base64: content('changed') });
  const second = await service.checkpoint({ runtime_id: id });
  const request = { from_checkpoint_id: first.checkpoint_id, to_checkpoint_id: second.checkpoint_id };
  const check = await service.diff(request);
  if (check.entries.length !== 1) throw new Error(`expected one changed path, got ${check.entries.length}`);
  for (let index = 0; index < 20; index++) await service.diff(request);
  const samples = [];
  for (let index = 0; index < DIFFS; index++) samples.push((await timed(() => service.diff(request))).ms);
  return samples;
}

const scratch = await mkdtemp(join(process.env.BENCH_DIR ?? tmpdir(), 'runtimectl-manifest-bench-'));
try {
  const cost = await manifestCost(scratch);
  const diffs = await diffLatency();
  const report = {
    workspace: WORKSPACE,
    rounds: ROUNDS,
    checkpointMs: cost.checkpoint,
    manifestMs: cost.manifest,
    secondWalkMs: cost.secondWalk,
    rehashAllMs: cost.rehashAll,
    manifestShare: cost.manifest.map((ms, index) => ms / cost.checkpoint[index]),
    secondWalkShare: cost.secondWalk.map((ms, index) => ms / cost.checkpoint[index]),
    diffMs: { median: median(diffs), p99: [...diffs].sort((a, b) => a - b)[Math.floor(diffs.length * 0.99)], samples: diffs.length },
  };
  log(`diff of two checkpoints differing in one file (10,000 files): median ${report.diffMs.median.toFixed(3)} ms, p99 ${report.diffMs.p99.toFixed(3)} ms`);
  if (args.json) writeFileSync(args.json, JSON.stringify(report, null, 2));
  else process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
} finally {
  await rm(scratch, { recursive: true, force: true });
}
