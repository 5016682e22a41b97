import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorShapeProblem } from '../support/error-shape';
import { writeFigures } from '../support/figures';
import { Api, type Reply } from '../support/http';
import { startRuntimed, type RuntimedProcess } from '../support/processes';
import { openRuntime } from '../support/runtime-steps';

// A runtime's commands make what the file API must never block on or hold whole: six FIFOs
// (more than libuv's four thread-pool threads), one fed by `yes`, `/dev/zero` made with `mknod`
// (as root), and a 300 MiB file. Through the HTTP API of a real runtimed (local provider) every
// special file is refused at once, another runtime is served meanwhile, read-file of the big file
// is refused with 413, export streams it with back-pressure, and the daemon's memory stays flat.
const MiB = 1024 * 1024;
const HUGE_BYTES = 300 * MiB;
const FIFOS = ['f1', 'f2', 'f3', 'f4', 'f5', 'f6'];
const IS_ROOT = process.getuid?.() === 0;
const SPECIAL = [...FIFOS, 'fed', ...(IS_ROOT ? ['zero'] : [])];
/** Every refusal and every bystander call must come within this (a blocked thread pool never answers). */
const QUICK_MS = 2_000;
const CLIENT_BOUND_MS = 10_000;

let daemon: RuntimedProcess;
let api: Api;
let hostile: string;
let bystander: string;
const figures: Record<string, unknown> = { fifos: FIFOS.length, device: IS_ROOT, hugeBytes: HUGE_BYTES };

beforeAll(async () => {
  // Isolation none: a command in its user namespace may not mknod a device (itself a defence);
  // here commands run as the daemon's user so the file API's refusal of a device is proven too.
  daemon = await startRuntimed({ args: ['--provider', 'local', '--local-isolation', 'none'] });
  api = new Api(daemon.url);
  hostile = await openRuntime(api);
  bystander = await openRuntime(api);
  const script = [
    'set -e',
    `mkfifo ${FIFOS.join(' ')} fed`,
    // Blocks until a reader opens `fed`, then writes for ever: a reader that keeps reading never ends.
    "nohup sh -c 'yes > fed' >/dev/null 2>&1 &",
    ...(IS_ROOT ? ['mknod zero c 1 5'] : []),
    `truncate -s ${HUGE_BYTES} huge.bin`,
  ].join('\n');
  const made = await api.ok<{ exit_code: number; stderr_base64: string }>('/api/v1/runtimes/exec', { runtime_id: hostile, command: script, timeout_ms: 30_000 });
  expect(made.exit_code, Buffer.from(made.stderr_base64, 'base64').toString()).toBe(0);
});

afterAll(async () => {
  writeFigures('special-files', figures);
  // A daemon whose thread pool is blocked in open() would never exit on SIGTERM.
  if (daemon) expect(await daemon.stop(), 'runtimed exit code').toBe(0);
});

async function timed(work: () => Promise<Reply>): Promise<{ reply: Reply; ms: number }> {
  const started = performance.now();
  const reply = await work();
  return { reply, ms: Math.round(performance.now() - started) };
}

function expectCode(reply: Reply, status: number, code: string): void {
  expect(reply.status, reply.text.slice(0, 300)).toBe(status);
  expect(errorShapeProblem(reply)).toBeUndefined();
  expect((reply.json as { code: string }).code).toBe(code);
}

/** exec, stat and read-file in the other runtime: each must answer quickly. */
async function bystanderLatencyMs(): Promise<number> {
  const calls = await Promise.all([
    timed(() => api.post('/api/v1/runtimes/exec', { runtime_id: bystander, command: 'echo ok' }, { timeoutMs: CLIENT_BOUND_MS })),
    timed(() => api.post('/api/v1/runtimes/stat', { runtime_id: bystander, path: '.' }, { timeoutMs: CLIENT_BOUND_MS })),
    timed(() => api.post('/api/v1/runtimes/write-file', { runtime_id: bystander, path: 'b.txt', content_base64: 'Yg==' }, { timeoutMs: CLIENT_BOUND_MS })),
  ]);
  for (const { reply } of calls) expect(reply.status, reply.text.slice(0, 300)).toBe(200);
  return Math.max(...calls.map((call) => call.ms));
}

describe('special and huge files', () => {
  it('read-file of FIFOs, a fed FIFO and /dev/zero is refused at once; another runtime is served meanwhile', async () => {
    const rssBefore = daemon.rssBytes();
    const reads = await Promise.all(
      SPECIAL.map((path) => timed(() => api.post('/api/v1/runtimes/read-file', { runtime_id: hostile, path }, { timeoutMs: CLIENT_BOUND_MS }))),
    );
    for (const { reply } of reads) expectCode(reply, 400, 'invalid_request');
    const slowestRefusalMs = Math.max(...reads.map((read) => read.ms));
    const latency = await bystanderLatencyMs();
    figures.read = { files: SPECIAL.length, slowestRefusalMs, bystanderMaxMs: latency, rssGrowthBytes: daemon.rssBytes() - rssBefore };
    expect(slowestRefusalMs).toBeLessThan(QUICK_MS);
    expect(latency).toBeLessThan(QUICK_MS);
  });

  it('write-file and export onto the same special files are refused at once', async () => {
    const calls = await Promise.all(
      SPECIAL.flatMap((path) => [
        timed(() => api.post('/api/v1/runtimes/write-file', { runtime_id: hostile, path, content_base64: 'eA==' }, { timeoutMs: CLIENT_BOUND_MS })),
        timed(() => api.post('/api/v1/runtimes/export', { runtime_id: hostile, path }, { timeoutMs: CLIENT_BOUND_MS })),
      ]),
    );
    for (const { reply } of calls) expectCode(reply, 400, 'invalid_request');
    const slowestRefusalMs = Math.max(...calls.map((call) => call.ms));
    figures.writeAndExport = { calls: calls.length, slowestRefusalMs, bystanderMaxMs: await bystanderLatencyMs() };
    expect(slowestRefusalMs).toBeLessThan(QUICK_MS);
  });

  it('read-file of a 300 MiB file is refused with 413 naming export, without reading it', async () => {
    const rssBefore = daemon.rssBytes();
    const { reply, ms } = await timed(() => api.post('/api/v1/runtimes/read-file', { runtime_id: hostile, path: 'huge.bin' }, { timeoutMs: CLIENT_BOUND_MS }));
    expectCode(reply, 413, 'payload_too_large');
    expect((reply.json as { error: string }).error).toContain('export');
    const growth = daemon.rssBytes() - rssBefore;
    figures.hugeRead = { ms, rssGrowthBytes: growth };
    expect(ms).toBeLessThan(QUICK_MS);
    expect(growth).toBeLessThan(32 * MiB);
  });

  it('export streams the 300 MiB file whole with back-pressure: a stalled reader leaves the daemon memory flat', async () => {
    const rssBefore = daemon.rssBytes();
    const response = await fetch(`${daemon.url}/api/v1/runtimes/export`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ runtime_id: hostile, path: 'huge.bin' }),
      signal: AbortSignal.timeout(60_000),
    });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    let received = (await reader.read()).value?.byteLength ?? 0;
    // Stall: a daemon that ignored back-pressure would buffer the whole file now.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const stalledGrowth = daemon.rssBytes() - rssBefore;
    let peakGrowth = stalledGrowth;
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      received += next.value.byteLength;
      if (received % (32 * MiB) < next.value.byteLength) peakGrowth = Math.max(peakGrowth, daemon.rssBytes() - rssBefore);
    }
    figures.hugeExport = { receivedBytes: received, stalledRssGrowthBytes: stalledGrowth, peakRssGrowthBytes: peakGrowth };
    expect(received).toBe(HUGE_BYTES);
    expect(stalledGrowth, 'RSS growth while the reader stalled').toBeLessThan(32 * MiB);
    expect(peakGrowth, 'RSS growth while streaming 300 MiB').toBeLessThan(96 * MiB);
  });

  it('the runtime with the special files closes normally', async () => {
    const closed = await api.post('/api/v1/runtimes/close', { runtime_id: hostile }, { timeoutMs: CLIENT_BOUND_MS });
    expect(closed.status, closed.text.slice(0, 300)).toBe(200);
    expect(daemon.alive()).toBe(true);
  });
});
