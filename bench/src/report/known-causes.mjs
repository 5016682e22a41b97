// What was found when a target was missed, by row id: printed under "Misses and their causes"
// whenever that row misses again. Keep each entry to what was measured, and say when and where.

// A CPU profile of `runtimed` (memory store and provider) under 50 connections, taken on the
// 2-core machine on 2026-11-29, samples attributed to the nearest package on the stack.
const PER_REQUEST_CPU =
  'A CPU profile of `runtimed` under 50 connections of clean checkpoints (2026-11-29, this machine) put about 280 µs of CPU on each request, against about 40 µs for the bare route: ' +
  'fastify routing, hooks and HTTP handling 74 µs; core 60 µs, 36 µs of which is the memory store deep-copying (`structuredClone`) every record it reads or writes; ' +
  'zod validation and response serialisation 26 µs; request logging (pino, two lines per request, written synchronously) 26 µs; garbage collection 20 µs; ' +
  'server-http’s own hooks (auth, telemetry, server-timing) 17 µs; prom-client 6 µs. A dirty write-file + checkpoint pair costs about 430 µs a request (the memory provider’s snapshot copy adds 15 µs).';

const NOT_SMALL =
  'The cost is spread over the whole stack, so no small, local change closes the gap; the largest single items are in packages/core (the memory store’s copies: copy-on-write or frozen records would remove most of them) and packages/server-http (two log lines per request, zod response serialisation), both owned elsewhere.';

const HTTP_CPU_BOUND = `Per request the runtime API stack (server-http, core, memory store and provider: the same in server.bench's api-server.mjs and in runtimed) spends 5–8× the bare route's CPU (column "server CPU per request" under Details), so under load it saturates its core at a fraction of the bare route's rate, and at 1 connection the same cost shows as latency. ${PER_REQUEST_CPU} ${NOT_SMALL}`;

export const KNOWN_CAUSES = {
  'http.checkpoint.clean.c1.throughput': HTTP_CPU_BOUND,
  'http.checkpoint.clean.c50.throughput': HTTP_CPU_BOUND,
  'http.checkpoint.dirty.c50.p99':
    'At 50 connections the daemon is CPU-bound (about 430 µs of CPU per write-file or checkpoint request against about 40 µs for the bare route), so requests queue behind each other and the p99 follows the queue; the bare route’s own p99 on this shared machine is set by scheduling noise (compare its p50), which is why the ratio moves between rounds (see the range). ' +
    `${PER_REQUEST_CPU} ${NOT_SMALL}`,
  'http.checkpoint.dirty.c1.p50':
    'An absolute target on a shared machine: the bare route’s p50 in the same rounds (reference) moves with the machine’s load, and the checkpoint stays at about 2× it. The extra is the per-request CPU of the daemon’s stack: ' +
    PER_REQUEST_CPU,
};
