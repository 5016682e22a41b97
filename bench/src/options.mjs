// Command line of `npm run bench`: the full run (the committed results) or --quick, a run of
// the same measurements with fewer and shorter rounds (under two minutes on a 2-core machine).
import { parseArgs } from 'node:util';

export const SECTIONS = ['http-clean', 'http-operations', 'e2b', 'store', 'store-postgres', 'memory', 'local', 'fs', 'fs-layers', 'fs-scale', 'events', 'retention', 'startup', 'fleet', 'manifests', 'verify-restores', 'mcp'];

const PROFILES = {
  full: {
    clean: { rounds: 5, durationSec: 5, warmupSec: 1 },
    http: { rounds: 5, durationSec: 5, warmupSec: 1 },
    e2b: { rounds: 7, cleanCheckpoints: 10 },
    store: { runtimes: 10_000, checkpointsPerRuntime: 10, iterations: 500, synchronous: 'both' },
    startup: { rounds: 7, cold: true },
    memory: { steps: 5, perStep: 1000 },
    local: { fileRounds: 9, execRounds: 60 },
    fs: { rounds: 3 },
    fsLayers: { rounds: 3, workspaces: 'W1,W3,W2' },
    fsScale: { files: 1_000_000 },
    manifests: { rounds: 3, diffs: 200 },
    verifyRestores: { rounds: 5, files: 10_000, mib: 200 },
    events: { rounds: 3, durationSec: 5 },
    retention: { runtimes: 10_000, rounds: 3, passes: 2, durationSec: 5 },
    fleet: { rounds: 5, operations: 40, leaseMs: 5_000, concurrent: 30, snapshotMs: 1_000 },
    mcp: { rounds: 5, calls: 400 },
  },
  quick: {
    // autocannon counts whole seconds. No warm-up per load: one per round instead (see http).
    clean: { rounds: 3, durationSec: 1, warmupSec: 0 },
    http: { rounds: 3, durationSec: 1, warmupSec: 0 },
    e2b: { rounds: 1, cleanCheckpoints: 5 },
    // 20,000 checkpoints: populating 100,000 alone takes 15-25 s on the 2-core machines.
    store: { runtimes: 2_000, checkpointsPerRuntime: 10, iterations: 60, synchronous: 'both' },
    startup: { rounds: 3, cold: false },
    memory: { steps: 3, perStep: 200 },
    local: { fileRounds: 3, execRounds: 20 },
    fs: { rounds: 1 },
    // W1 only: W3 (800 MiB) and W2 (a node_modules) take minutes to make and commit to git.
    fsLayers: { rounds: 1, workspaces: 'W1' },
    // A tenth of the full run's million files: making them alone takes minutes.
    fsScale: { files: 100_000 },
    manifests: { rounds: 1, diffs: 50 },
    // A fifth of the workspace: writing 200 MiB through the emulator alone takes minutes.
    verifyRestores: { rounds: 3, files: 2_000, mib: 40 },
    events: { rounds: 1, durationSec: 2 },
    retention: { runtimes: 2_000, rounds: 1, passes: 2, durationSec: 2 },
    fleet: { rounds: 2, operations: 10, leaseMs: 3_000, concurrent: 30, snapshotMs: 500 },
    mcp: { rounds: 1, calls: 100 },
  },
};

export const USAGE = `usage: npm run bench [-- --quick] [-- --only ${SECTIONS.join(',')}] [-- --no-write]
  --quick     fewer, shorter rounds, a 20,000-checkpoint store, and the E2B section (mostly
              waiting on the emulator's injected latency) alongside the store, memory and
              local-provider sections: under two minutes. The full run is the one to quote.
  --only      run some sections only: they replace their own sections in both result files, the
              others are kept and each section says which run it comes from (unless --no-write)
  --no-write  print the report, do not touch bench/RESULTS.md or bench/results/latest.json
  --render    measure nothing: rewrite bench/RESULTS.md from bench/results/latest.json (after
              src/report/known-causes.mjs changed)`;

export function parseOptions(argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      quick: { type: 'boolean', default: false },
      only: { type: 'string' },
      'no-write': { type: 'boolean', default: false },
      render: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const only = values.only ? values.only.split(',') : SECTIONS;
  const unknown = only.filter((name) => !SECTIONS.includes(name));
  if (unknown.length > 0) throw new Error(`--only: unknown section ${unknown.join(', ')}\n${USAGE}`);
  const mode = values.quick ? 'quick' : 'full';
  return {
    mode,
    profile: PROFILES[mode],
    sections: only,
    // Quick only: E2B runs in the background until the start-up section, which it must not disturb.
    background: values.quick ? ['e2b'] : [],
    write: !values['no-write'],
    renderOnly: values.render,
  };
}
