#!/usr/bin/env node
// `npm run bench`: every measurement of issue 9 next to its reference, in one run on this
// machine, one section after another (never two at once: they would share the cores). Writes
// bench/results/latest.json and bench/RESULTS.md and prints the markdown report on stdout;
// progress goes to stderr. Needs the workspace built (the root `npm run bench` does that).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cpuSnapshot, describeMachine, loadAverage, othersShare } from './src/machine.mjs';
import { parseOptions, SECTIONS } from './src/options.mjs';
import { RUNTIMED, repoPath } from './src/processes.mjs';
import { removeTree } from './src/remove-tree.mjs';
import { renderReport } from './src/report/render-markdown.mjs';
import { mergeRuns } from './src/report/merge-runs.mjs';
import { readResults, writeMarkdown, writeResults } from './src/report/write-results.mjs';
import { measureHttpClean } from './src/sections/http-clean.mjs';
import { measureHttpRuntimeOperations } from './src/sections/http-runtime-operations.mjs';
import { measureE2BOverhead } from './src/sections/e2b-overhead.mjs';
import { measureStore } from './src/sections/store.mjs';
import { measureStorePostgres } from './src/sections/store-postgres.mjs';
import { measureDaemonStartup } from './src/sections/daemon-startup.mjs';
import { measureMemory } from './src/sections/memory.mjs';
import { measureLocalProvider } from './src/sections/local-provider.mjs';
import { measureFleet } from './src/sections/fleet.mjs';
import { measureEventStream } from './src/sections/event-stream.mjs';
import { measureFsProvider } from './src/sections/fs-provider.mjs';
import { measureFsLayers } from './src/sections/fs-layers.mjs';
import { measureFsScale } from './src/sections/fs-scale.mjs';
import { measureRetention } from './src/sections/retention.mjs';
import { measureManifests } from './src/sections/manifests.mjs';
import { measureVerifyRestores } from './src/sections/verify-restores.mjs';
import { measureMcpToolCall } from './src/sections/mcp-tool-call.mjs';

const SECTION_RUNNERS = {
  'http-clean': { title: 'HTTP checkpoint of a clean runtime (packages/server-http/bench)', run: measureHttpClean },
  'http-operations': { title: 'HTTP checkpoint of a dirty runtime; checkout, pause, resume (runtimed)', run: measureHttpRuntimeOperations },
  e2b: { title: 'E2B provider against the emulator (packages/provider-e2b/bench)', run: measureE2BOverhead },
  store: { title: 'SQLite store with 100,000 checkpoints (packages/store-sqlite/bench)', run: measureStore },
  'store-postgres': { title: 'PostgreSQL store with 100,000 checkpoints, against SQLite (packages/store-postgres)', run: measureStorePostgres },
  startup: { title: '`runtimed` start to ready', run: measureDaemonStartup },
  memory: { title: 'Resident memory of `runtimed`', run: measureMemory },
  local: { title: 'Local provider against raw Node (packages/provider-local/bench)', run: measureLocalProvider },
  fs: { title: 'fs provider snapshots against tar and cp (packages/provider-fs/bench)', run: measureFsProvider },
  'fs-layers': { title: 'fs provider, layers store (issue 34): checkout and checkpoints on W1, W3 and W2 against cp -a, git, tar and restic (packages/provider-fs/bench/layers.bench.mjs); pause and resume over HTTP', run: measureFsLayers },
  'fs-scale': { title: 'fs provider, layers store, at scale (issue 34): a workspace of many files over HTTP (runtimed)', run: measureFsScale },
  events: { title: 'Event stream: SSE delivery of the event log under load (issue 23)', run: measureEventStream },
  retention: { title: 'Retention: a pass over 100,000 checkpoints, and clean checkpoints while passes run (issue 23)', run: measureRetention },
  fleet: { title: 'A fleet of 3 nodes on one PostgreSQL against one node (E2B emulator)', run: measureFleet },
  manifests: { title: 'Content manifests at checkpoint and diff (issue 22; packages/provider-fs/bench/manifest.bench.mjs)', run: measureManifests },
  mcp: { title: 'MCP tool call against the same operation over HTTP (issue 35; packages/mcp)', run: measureMcpToolCall },
  'verify-restores': { title: 'Verified restores: checkout and resume with verification on against off, per provider (issue 22; apps/daemon/bench/verify-restores.bench.mjs)', run: measureVerifyRestores },
};

const options = parseOptions(process.argv.slice(2));
if (options.renderOnly) {
  const results = readResults();
  if (!results) {
    console.error('bench: nothing to render: bench/results/latest.json does not exist yet (run npm run bench)');
    process.exit(1);
  }
  const markdown = renderReport(results);
  process.stdout.write(markdown);
  writeMarkdown(markdown);
  process.exit(0);
}
// The start-up measurement runs the daemon on the store section's 100,000-checkpoint file.
if (options.sections.includes('startup') && !options.sections.includes('store')) options.sections.splice(options.sections.indexOf('startup'), 0, 'store');
// The PostgreSQL section reports its figures against the store section's SQLite ones.
if (options.sections.includes('store-postgres') && !options.sections.includes('store')) options.sections.splice(options.sections.indexOf('store-postgres'), 0, 'store');
for (const built of [RUNTIMED, repoPath('packages', 'server-http', 'dist', 'index.js'), repoPath('packages', 'store-sqlite', 'dist', 'index.js'), repoPath('packages', 'store-postgres', 'dist', 'index.js')]) {
  if (!existsSync(built)) {
    console.error(`bench: ${built} is missing; build first (npm run bench builds everything)`);
    process.exit(1);
  }
}

const log = (line) => process.stderr.write(`[bench] ${line}\n`);
const tmpRoot = mkdtempSync(join(tmpdir(), 'runtimectl-bench-'));
const startedAt = new Date();
// Which code was measured: the commit, and whether the work tree differed from it.
const gitCommit = (() => {
  const head = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: repoPath(), encoding: 'utf8' }).stdout?.trim();
  const changed = spawnSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: repoPath(), encoding: 'utf8' }).stdout?.trim();
  return head ? `${head}${changed ? ' + uncommitted changes' : ''}` : 'unknown';
})();
const machine = { ...describeMachine(), loadAverageAtStart: loadAverage() };
const runCpuBefore = cpuSnapshot();
const shared = {};
const results = new Map();

/** Runs one section; a section that fails is reported as failed, and the run goes on. */
async function runSection(name) {
  const { title, run } = SECTION_RUNNERS[name];
  const sectionStartedAt = performance.now();
  const cpuBefore = cpuSnapshot();
  log(`${name}: ${title}`);
  let result;
  try {
    result = await run({ profile: options.profile, mode: options.mode, tmpRoot, shared, log: (line) => log(`${name}: ${line}`) });
  } catch (error) {
    log(`${name}: FAILED: ${error.stack ?? error}`);
    result = { rows: [], details: [`**This section failed:** ${String(error.message ?? error).split('\n')[0]}`], raw: null, failed: true };
  }
  const seconds = (performance.now() - sectionStartedAt) / 1000;
  const otherWork = othersShare(cpuBefore, cpuSnapshot());
  results.set(name, { name, title, seconds: Number(seconds.toFixed(1)), loadAverageAfter: loadAverage(), otherWorkCpuShare: otherWork, ...result });
  log(`${name}: done in ${seconds.toFixed(0)} s`);
}

const background = [];
try {
  for (const name of options.sections) {
    if (options.background.includes(name)) {
      background.push(runSection(name));
      continue;
    }
    // Start-up time is an absolute target: it runs alone.
    if (name === 'startup') await Promise.all(background.splice(0));
    await runSection(name);
  }
  await Promise.all(background);
} finally {
  await shared.cleanup?.();
  // Mount-aware: a daemon's fs provider in layers mode leaves its live workspaces mounted.
  await removeTree(tmpRoot);
}
machine.loadAverageAtEnd = loadAverage();
machine.otherWorkCpuShare = othersShare(runCpuBefore, cpuSnapshot());
const sections = options.sections.map((name) => results.get(name));

const run = {
  mode: options.mode,
  commit: gitCommit,
  command: `npm run bench${options.mode === 'quick' ? ' -- --quick' : ''}${options.sections.length < Object.keys(SECTION_RUNNERS).length ? ` (only ${options.sections.join(', ')})` : ''}`,
  startedAt: startedAt.toISOString(),
  seconds: Number(((Date.now() - startedAt.getTime()) / 1000).toFixed(1)),
  profile: options.profile,
  ...(options.background.length > 0 ? { alongsideOthers: options.background } : {}),
};
const markdown = renderReport({ run, machine, sections });
process.stdout.write(markdown);
if (options.write) {
  // A partial run updates its sections in both files and keeps the others, each saying its run.
  const written = mergeRuns(readResults(), { run, machine, sections }, SECTIONS);
  writeResults({ ...written, markdown: renderReport(written) });
}
const misses = sections.flatMap((section) => section.rows).filter((row) => row.verdict === 'miss');
const failed = sections.filter((section) => section.failed).map((section) => section.name);
log(`${misses.length} miss${misses.length === 1 ? '' : 'es'}${failed.length ? `; FAILED sections: ${failed.join(', ')}` : ''}; ${options.write ? 'wrote bench/RESULTS.md and bench/results/latest.json' : 'nothing written (--no-write)'}`);
// Misses are results, not errors; a section that could not measure is an error.
process.exitCode = failed.length > 0 ? 1 : 0;
