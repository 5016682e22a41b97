// What was found when a target was missed. Each cause is written once (CAUSES) and the rows it
// explains point to it (CAUSE_OF_ROW): the report prints, under "Misses and their causes", each
// missed row with a link to its cause, then every cause a miss points to, once. Keep each cause to
// what was measured (say when and where) and what would fix it.

/** @type {Record<string, { title: string, text: string }>} */
export const CAUSES = {
  'cpu-per-request': {
    title: 'CPU per request',
    text:
      'Under load the daemon is CPU-bound on its one core, so its req/s is the inverse of its CPU time per request (column "server CPU per request" under Details). ' +
      'Measured on 2026-11-29 (full run, 20:25 UTC): a clean checkpoint cost 108 µs of server CPU at 50 connections, the hand-minimal server (fastify, request id, bearer check, zod request and response schemas, one pino access line, request counter and histogram in front of a canned answer) 69 µs, the runtime API answering without doing the operation 83 µs, and the bare route 26 µs. ' +
      'Counted with valgrind (`pnpm --filter @runtimectl/server-http bench:instructions`, 2026-11-29 18:20 UTC): a bare GET is 143,000 user-space instructions per request, the API’s health route 210,000, a clean checkpoint 355,000 and exec 358,000. ' +
      'Shares of the daemon’s time in a CPU profile: the kernel about 30%, Node’s and fastify’s HTTP handling about 30%, core with the memory store and provider 11%, garbage collection 5%, server-http’s hooks, handlers and serialiser 4%, zod 3%, the pino access line 3%, prom-client 3%. ' +
      'What would fix it: fewer µs per request above the hand-minimal server — the extra is route config, `server-timing`, the JSON depth check, operation metrics (server-http, about 14 µs together) and the operation itself (core, store and provider, about 20–25 µs under load); merging the per-request hooks into one and recording operation metrics without a second histogram lookup are the next measurable steps.',
  },
  'queued-p99': {
    title: 'Queueing at 50 connections',
    text:
      'With 50 requests always in flight, a request waits for the ones ready before it in the same event-loop turn (about 48), so p50 ≈ 48 × the CPU per request and the p99 adds a young-generation scavenge (1.5–2.5 ms, about every 16 MB allocated, about 30 KB per request) and the host’s own hiccups. ' +
      'Against the hand-minimal server, which pays the same hiccups, the p99 ratio therefore follows the ratio of CPU per request (108 µs ÷ 69 µs ≈ 1.6× for the clean checkpoint on 2026-11-29; about 130 µs for a dirty checkpoint or write-file through `runtimed`, with Idempotency-Key hooks and its logging) and moves with the host between rounds (see the range). ' +
      'What would fix it: the same as for [CPU per request](#cause-cpu-per-request), plus less garbage per request (fewer scavenges inside the measured window).',
  },
  'absolute-latency': {
    title: 'An absolute latency target on a shared machine',
    text:
      'The bare route’s p50 in the same rounds (the reference) moves with the machine’s load, and the daemon stays at about 2× it: the extra is its CPU per request (see [CPU per request](#cause-cpu-per-request)). What would fix it: the same, or the target read against the reference in the same run.',
  },
};

/** Row id → the cause that explains its miss. */
export const CAUSE_OF_ROW = {
  'http.checkpoint.clean.c1.throughput': 'cpu-per-request',
  'http.checkpoint.clean.c50.throughput': 'cpu-per-request',
  'http.checkpoint.clean.c50.p99': 'queued-p99',
  'http.exec.c50.p99': 'queued-p99',
  'http.checkpoint.dirty.c50.p99': 'queued-p99',
  'http.checkpoint.dirty.c1.p50': 'absolute-latency',
};

/** The anchor GitHub gives the heading `### Cause: <title>`. */
export const causeAnchor = (causeId) => `cause-${CAUSES[causeId].title.toLowerCase().replace(/[^a-z0-9 -]/g, '').replace(/ /g, '-')}`;
