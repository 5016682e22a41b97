// Verified restores (issue 22): what comparing a restored workspace with its checkpoint's
// manifest costs checkout and resume, per provider, against the same restore unverified.
//
// For each provider (memory, fs, e2b against the in-process emulator, with E2B's create latency
// injected as the e2b section does: 2340 ms) one RuntimeService (memory
// store) and a workspace of BENCH_FILES files / BENCH_MIB MiB (the fs benchmark's mix: many small
// files, ten 1 MiB files, large files filling the rest), written through write-file. Then per
// round, in an order that flips every round:
//   - checkout of a checkpoint whose runtime has verify off, and of one with verify on (the same
//     provider snapshot: the second checkpoint of a clean runtime reuses it), each child closed;
//   - resume of the runtime paused with verify off, then on (pause of a clean runtime reuses the
//     snapshot, so every resume restores the same one).
// Reports the medians and the on/off ratio of each. Beside them, per provider, the content
// manifest's cost at checkpoint (issue 22): per round one file of the workspace changed, then a
// checkpoint, on the service above and on a second one whose provider hides `manifest()` (and any
// manifest a snapshot carries), so it records none. Not a test:
//   node apps/daemon/bench/verify-restores.bench.mjs [--json out.json]   (after building)
// Environment: BENCH_ROUNDS (default 5), BENCH_FILES (default 10000), BENCH_MIB (default 200),
// BENCH_PROVIDERS (default memory,fs,e2b), BENCH_DIR (scratch parent).
import { randomBytes } from 'node:crypto';
import { readdir, readFile, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { parseArgs } from 'node:util';
import { MemoryRuntimeStore, RuntimeService } from '@runtimectl/core';
import { startE2BEmulator } from '@runtimectl/e2b-emulator';
import { createE2BProvider } from '@runtimectl/provider-e2b';
import { createFsProvider } from '@runtimectl/provider-fs';
import { createMemoryProvider } from '@runtimectl/testkit';
import { makeWorkspace } from '../../../packages/provider-fs/bench/workspace.mjs';
import { median } from '../../../bench/src/stats.mjs';

const { values: args } = parseArgs({ options: { json: { type: 'string' } } });
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SHAPE = { files: Number(process.env.BENCH_FILES ?? 10_000), bytes: Number(process.env.BENCH_MIB ?? 200) * 2 ** 20 };
const E2B_CREATE_MS = 2340;
const E2B_SNAPSHOT_MS = 1520;
const PROVIDERS = (process.env.BENCH_PROVIDERS ?? 'memory,fs,e2b').split(',');
const log = (line) => process.stderr.write(`${line}\n`);
/** Milliseconds `fn` took. */
async function timed(fn) {
  const startedAt = performance.now();
  await fn();
  return performance.now() - startedAt;
}

/** Every file under `root`, relative path and content. */
async function filesOf(root) {
  const entries = await promisify(readdir)(root, { recursive: true, withFileTypes: true });
  const files = [];
  for (const entry of entries.filter((candidate) => candidate.isFile())) {
    const path = join(entry.parentPath, entry.name);
    files.push({ path: relative(root, path), content: await promisify(readFile)(path) });
  }
  return files;
}

/** `provider` as one without manifests: its backends have no `manifest()`, its snapshots carry none. */
function withoutManifests(provider) {
  const bare = (backend) =>
    new Proxy(backend, {
      get: (target, key) => {
        if (key === 'manifest') return undefined;
        const value = Reflect.get(target, key, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
      has: (target, key) => key !== 'manifest' && key in target,
    });
  return new Proxy(provider, {
    get: (target, key) => {
      const value = Reflect.get(target, key, target);
      if (typeof value !== 'function') return value;
      if (key === 'create' || key === 'attach' || key === 'checkout') return async (...args) => bare(await value.apply(target, args));
      if (key === 'checkpoint') return async (backend, request) => ({ ...(await value.call(target, backend, request)), manifest: undefined });
      return value.bind(target);
    },
  });
}

/**
 * The manifest's cost at checkpoint: per round (after a warm-up) one file changed, then a timed
 * checkpoint, on `service` (manifests) and on `bare` (none), alternating which goes first.
 */
async function measureManifestCost(service, bare, files) {
  const open = async (on) => (await on.open({ conversation_id: 'bench', sender_id: 'bench' })).runtime.runtime_id;
  const runtimes = [];
  for (const on of [service, bare]) {
    const runtimeId = await open(on);
    for (const { path, content } of files) await on.writeFile({ runtime_id: runtimeId, path, content_base64: content.toString('base64') });
    await on.checkpoint({ runtime_id: runtimeId });
    runtimes.push({ on, runtimeId, samples: [] });
  }
  const [withManifest, without] = runtimes;
  const changed = files[Math.floor(files.length / 2)].path;
  for (let round = 0; round <= ROUNDS; round++) {
    for (const arm of round % 2 ? [without, withManifest] : [withManifest, without]) {
      await arm.on.writeFile({ runtime_id: arm.runtimeId, path: changed, content_base64: Buffer.from(`round ${round} ${randomBytes(8).toString('hex')}`).toString('base64') });
      const ms = await timed(() => arm.on.checkpoint({ runtime_id: arm.runtimeId }));
      if (round > 0) arm.samples.push(ms);
    }
  }
  const manifestRoots = await Promise.all(runtimes.map(async ({ on, runtimeId }) => (await on.checkpoint({ runtime_id: runtimeId })).manifest_root));
  if (!manifestRoots[0] || manifestRoots[1] !== null) throw new Error(`expected a manifest on one arm only, got ${JSON.stringify(manifestRoots)}`);
  return {
    checkpointWithManifest: withManifest.samples,
    checkpointWithout: without.samples,
    manifestRatio: median(withManifest.samples.map((value, index) => value / without.samples[index])),
  };
}

/** Runs the rounds on one service; `verified` counts the comparisons it made (a check that they ran). */
async function measure(service, files, verified) {
  const open = async (verify) => (await service.open({ conversation_id: 'bench', sender_id: 'bench', verify })).runtime.runtime_id;
  const source = await open(false);
  for (const { path, content } of files) await service.writeFile({ runtime_id: source, path, content_base64: content.toString('base64') });
  const off = (await service.checkpoint({ runtime_id: source })).checkpoint_id;
  await service.update({ runtime_id: source, verify: true });
  const on = (await service.checkpoint({ runtime_id: source })).checkpoint_id;
  const paused = await open(false);
  for (const { path, content } of files) await service.writeFile({ runtime_id: paused, path, content_base64: content.toString('base64') });
  await service.pause({ runtime_id: paused });
  const samples = { checkoutOff: [], checkoutOn: [], resumeOff: [], resumeOn: [] };
  const checkout = async (checkpointId, into) => {
    let child;
    into.push(await timed(async () => (child = (await service.checkout({ checkpoint_id: checkpointId })).runtime.runtime_id)));
    await service.close({ runtime_id: child });
  };
  const resume = async (verify, into) => {
    await service.update({ runtime_id: paused, verify });
    into.push(await timed(() => service.resume({ runtime_id: paused })));
    await service.pause({ runtime_id: paused });
  };
  for (let round = 0; round <= ROUNDS; round++) {
    // Round 0 warms up (first restore of each snapshot: caches, JIT) and is not kept.
    const keep = (name) => (round === 0 ? [] : samples[name]);
    const steps = [() => checkout(off, keep('checkoutOff')), () => checkout(on, keep('checkoutOn')), () => resume(false, keep('resumeOff')), () => resume(true, keep('resumeOn'))];
    const order = round % 2 ? [1, 0, 3, 2] : [0, 1, 2, 3];
    for (const index of order) await steps[index]();
  }
  const expected = (ROUNDS + 1) * 2;
  if (verified.count !== expected) throw new Error(`expected ${expected} verified restores, the service made ${verified.count}`);
  const ratio = (a, b) => median(samples[a].map((value, index) => value / samples[b][index]));
  return {
    ...samples,
    checkoutOffMs: median(samples.checkoutOff),
    checkoutOnMs: median(samples.checkoutOn),
    resumeOffMs: median(samples.resumeOff),
    resumeOnMs: median(samples.resumeOn),
    checkoutRatio: ratio('checkoutOn', 'checkoutOff'),
    resumeRatio: ratio('resumeOn', 'resumeOff'),
  };
}

const scratch = await mkdtemp(join(process.env.BENCH_DIR ?? tmpdir(), 'runtimectl-verify-bench-'));
try {
  log(`writing the workspace (${SHAPE.files} files, ${SHAPE.bytes / 2 ** 20} MiB)…`);
  const source = join(scratch, 'source');
  await import('node:fs/promises').then(({ mkdir }) => mkdir(source));
  const made = await makeWorkspace(source, { shape: SHAPE });
  const files = await filesOf(source);
  const report = { workspace: { files: made.files, bytes: made.bytes }, rounds: ROUNDS, providers: {} };
  for (const name of PROVIDERS) {
    const verified = { count: 0 };
    const observer = { restoreVerification: () => (verified.count += 1) };
    let provider;
    let stop = async () => {};
    if (name === 'memory') provider = createMemoryProvider();
    else if (name === 'fs') provider = createFsProvider({ root: join(scratch, 'fs-workspaces'), snapshots: join(scratch, 'fs-snapshots'), isolation: 'none', workspaceQuotaBytes: 0 });
    else if (name === 'e2b') {
      // E2B's own restore time, as the e2b section injects it (the seed's measured create latency).
      const emulator = await startE2BEmulator({ latencyMs: { create: E2B_CREATE_MS, snapshot: E2B_SNAPSHOT_MS } });
      const e2b = createE2BProvider({ apiKey: `e2b_${randomBytes(20).toString('hex')}`, apiUrl: emulator.apiUrl, sandboxUrl: emulator.sandboxUrl, requestTimeoutMs: 120_000 });
      provider = e2b;
      stop = async () => {
        e2b.dispose();
        await emulator.close();
      };
    } else throw new Error(`unknown provider ${name}`);
    const service = new RuntimeService({ store: new MemoryRuntimeStore(), providers: [provider], defaultProvider: provider.providerId, observer });
    // Its own installation: each service's reconcile releases what its installation owns and its store does not know.
    const bare = new RuntimeService({ store: new MemoryRuntimeStore(), providers: [withoutManifests(provider)], defaultProvider: provider.providerId, installationId: 'bench-without-manifests' });
    log(`${name}: measuring…`);
    // Started: its lease heartbeat keeps a long restore (E2B's) from losing the runtime's lease.
    await service.start();
    await bare.start();
    try {
      report.providers[name] = { ...(await measure(service, files, verified)), ...(await measureManifestCost(service, bare, files)) };
    } finally {
      await bare.stop();
      await service.stop();
      await stop();
    }
    const result = report.providers[name];
    log(`${name}: checkout ${result.checkoutOffMs.toFixed(0)} → ${result.checkoutOnMs.toFixed(0)} ms (${result.checkoutRatio.toFixed(2)}×), resume ${result.resumeOffMs.toFixed(0)} → ${result.resumeOnMs.toFixed(0)} ms (${result.resumeRatio.toFixed(2)}×), checkpoint with its manifest ${result.manifestRatio.toFixed(2)}× without`);
  }
  const json = JSON.stringify(report, null, 2);
  if (args.json) writeFileSync(args.json, json);
  else process.stdout.write(`${json}\n`);
} finally {
  await rm(scratch, { recursive: true, force: true });
}
