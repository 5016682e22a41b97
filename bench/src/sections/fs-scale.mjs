// Issue 34's scale targets: a workspace of many files (1,000,000 in the full run, 100,000 with
// --quick) on runtimed's fs provider with the layers store (root with overlayfs: elsewhere the
// daemon refuses `snapshot_store = "layers"` and this section fails saying why), over HTTP. One
// round (making a million files takes minutes): one exec makes the files (1,000 per directory,
// empty, as the hostile review did), then a checkpoint while `/health` is asked every 20 ms;
// the daemon's peak resident memory (VmHWM) over its resident memory before the checkpoint;
// read-file of one file by `checkpoint_id`; delete-snapshot of another runtime's checkpoint; a
// checkout of the big checkpoint (verified, as fs restores are by default); and a checkpoint
// after one file changed.
import { mkdtempSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { apiClient, base64 } from '../api-client.mjs';
import { formatValue } from '../format.mjs';
import { startRuntimed, stopChild } from '../processes.mjs';
import { removeTree } from '../remove-tree.mjs';
import { median, quantileOfSorted } from '../stats.mjs';
import { figureRow } from '../report/figures.mjs';

const FILES_PER_DIRECTORY = 1000;
const HEALTH_EVERY_MS = 20;
const READS = 5;
const TARGETS = { rssGrowthMiB: 256, healthP99Ms: 100, readFileMs: 10, deleteSnapshotMs: 100 };
/** The files the memory target is set for: a run with fewer files is held to a proportional share (no less honest a smoke). */
const TARGET_FILES = 1_000_000;

/** Resident and peak resident memory of process `pid`, in MiB (/proc). */
function memoryOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(status)[1]);
  return { rssMiB: kib('VmRSS') / 1024, peakMiB: kib('VmHWM') / 1024 };
}

async function timed(work) {
  const startedAt = performance.now();
  const result = await work();
  return { ms: performance.now() - startedAt, result };
}

/** Asks `/health` every HEALTH_EVERY_MS until stopped; resolves each answer's latency. */
function pollHealth(url) {
  const latencies = [];
  let polling = true;
  const done = (async () => {
    while (polling) {
      const startedAt = performance.now();
      await fetch(`${url}/api/v1/health`).then((response) => response.arrayBuffer());
      latencies.push(performance.now() - startedAt);
      await new Promise((resolve) => setTimeout(resolve, HEALTH_EVERY_MS));
    }
  })();
  return async () => {
    polling = false;
    await done;
    return latencies.sort((a, b) => a - b);
  };
}

export async function measureFsScale({ profile, tmpRoot, log }) {
  const { files } = profile.fsScale;
  const directories = Math.ceil(files / FILES_PER_DIRECTORY);
  const stateDir = mkdtempSync(join(tmpRoot, 'fs-scale-'));
  const daemon = await startRuntimed({
    args: ['--state-dir', stateDir, '--log-level', 'warn'],
    env: { RUNTIMECTL_PROVIDERS_FS_SNAPSHOT_STORE: 'layers', RUNTIMECTL_PROVIDERS_FS_WORKSPACE_QUOTA_INODES: '0' },
  });
  try {
    const api = apiClient(daemon.url);
    const open = (runtime_id) => api.post('/api/v1/runtimes/open', { runtime_id, conversation_id: 'bench', sender_id: 'bench' });
    await open('big');
    await open('other');
    await api.post('/api/v1/runtimes/write-file', { runtime_id: 'other', path: 'x', content_base64: base64('x') });
    const other = await api.post('/api/v1/runtimes/checkpoint', { runtime_id: 'other' });
    const made = await timed(() =>
      api.post('/api/v1/runtimes/exec', {
        runtime_id: 'big',
        timeout_ms: 3_600_000,
        command: `for d in $(seq ${directories}); do mkdir d$d && (cd d$d && seq ${FILES_PER_DIRECTORY} | sed s/^/f/ | xargs touch) || exit 1; done`,
      }),
    );
    if (made.result.exit_code !== 0) throw new Error(`making ${files} files failed: ${Buffer.from(made.result.stderr_base64, 'base64').toString().slice(0, 300)}`);
    log(`${(directories * FILES_PER_DIRECTORY).toLocaleString('en-US')} files made in ${(made.ms / 1000).toFixed(1)} s`);

    const before = memoryOf(daemon.child.pid);
    const stopPolling = pollHealth(daemon.url);
    const checkpoint = await timed(() => api.post('/api/v1/runtimes/checkpoint', { runtime_id: 'big' }));
    const health = await stopPolling();
    const after = memoryOf(daemon.child.pid);
    log(`checkpoint ${(checkpoint.ms / 1000).toFixed(1)} s, peak RSS ${after.peakMiB.toFixed(0)} MiB (${before.rssMiB.toFixed(0)} before), /health p99 ${quantileOfSorted(health, 0.99).toFixed(0)} ms`);
    const checkpointId = checkpoint.result.checkpoint_id;

    const reads = [];
    for (let read = 0; read < READS; read += 1) {
      const directory = 1 + Math.floor(((read + 0.5) * directories) / READS);
      reads.push((await timed(() => api.post('/api/v1/runtimes/read-file', { checkpoint_id: checkpointId, path: `d${directory}/f${1 + read}` }))).ms);
    }
    const deleted = await timed(() => api.post('/api/v1/runtimes/checkpoint/delete-snapshot', { checkpoint_id: other.checkpoint_id }));
    const checkout = await timed(() => api.post('/api/v1/runtimes/checkout', { checkpoint_id: checkpointId }));
    await api.post('/api/v1/runtimes/write-file', { runtime_id: 'big', path: 'd1/f1', content_base64: base64('changed') });
    const changed = await timed(() => api.post('/api/v1/runtimes/checkpoint', { runtime_id: 'big' }));

    const size = `${files.toLocaleString('en-US')} empty files`;
    const rssTargetMiB = (TARGETS.rssGrowthMiB * Math.min(files, TARGET_FILES)) / TARGET_FILES;
    const rssTargetText = files >= TARGET_FILES ? `≤ ${TARGETS.rssGrowthMiB} MiB` : `≤ ${rssTargetMiB.toFixed(1)} MiB (${TARGETS.rssGrowthMiB} MiB for ${TARGET_FILES.toLocaleString('en-US')} files, in proportion)`;
    const rows = [
      figureRow({
        id: 'fs-scale.checkpoint.rss-growth',
        measurement: `runtimed's peak resident memory over its resident memory before, during the first checkpoint of ${size} (fs, layers)`,
        rounds: [after.peakMiB - before.rssMiB],
        unit: 'MiB',
        target: { text: rssTargetText, met: ({ value }) => value <= rssTargetMiB },
      }),
      figureRow({
        id: 'fs-scale.checkpoint.health-p99',
        measurement: `\`GET /health\` every ${HEALTH_EVERY_MS} ms throughout that checkpoint: p99`,
        rounds: [quantileOfSorted(health, 0.99)],
        unit: 'ms',
        detail: `${health.length} answers, median ${formatValue(median(health), 'ms')}, slowest ${formatValue(health.at(-1), 'ms')}`,
        target: { text: `≤ ${TARGETS.healthP99Ms} ms`, met: ({ value }) => value <= TARGETS.healthP99Ms },
      }),
      figureRow({
        id: 'fs-scale.read-file-by-checkpoint',
        measurement: `read-file of one file by \`checkpoint_id\` in that checkpoint: median of ${READS}`,
        rounds: [median(reads)],
        unit: 'ms',
        target: { text: `≤ ${TARGETS.readFileMs} ms`, met: ({ value }) => value <= TARGETS.readFileMs },
      }),
      figureRow({
        id: 'fs-scale.delete-snapshot-unrelated',
        measurement: "delete-snapshot of another runtime's checkpoint in the same store",
        rounds: [deleted.ms],
        unit: 'ms',
        target: { text: `≤ ${TARGETS.deleteSnapshotMs} ms`, met: ({ value }) => value <= TARGETS.deleteSnapshotMs },
      }),
      figureRow({ id: 'fs-scale.checkpoint', measurement: `the first checkpoint of ${size}`, rounds: [checkpoint.ms], unit: 'ms' }),
      figureRow({ id: 'fs-scale.checkout', measurement: 'checkout of that checkpoint (verified, as fs restores are by default)', rounds: [checkout.ms], unit: 'ms' }),
      figureRow({ id: 'fs-scale.changed-checkpoint', measurement: 'a checkpoint after one file changed (write-file)', rounds: [changed.ms], unit: 'ms' }),
    ];
    const details = [
      `One round: \`runtimed --log-level warn\` with \`RUNTIMECTL_PROVIDERS_FS_SNAPSHOT_STORE=layers\` and no inode quota, its state under the bench's temporary directory; one exec made ${size} (${directories.toLocaleString('en-US')} directories of ${FILES_PER_DIRECTORY}) in ${(made.ms / 1000).toFixed(1)} s. Resident memory ${before.rssMiB.toFixed(0)} MiB before the checkpoint, peak ${after.peakMiB.toFixed(0)} MiB during it. Read-file: ${reads.map((ms) => formatValue(ms, 'ms')).join(', ')}.`,
    ];
    return { rows, details, raw: { files, makeMs: made.ms, before, after, health, reads, deleteMs: deleted.ms, checkpointMs: checkpoint.ms, checkoutMs: checkout.ms, changedMs: changed.ms } };
  } finally {
    await stopChild(daemon.child);
    await removeTree(stateDir);
  }
}
