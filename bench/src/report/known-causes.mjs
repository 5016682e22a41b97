// What was found when a target was missed. Each cause is written once (CAUSES) and the rows it
// explains point to it (CAUSE_OF_ROW): the report prints, under "Misses and their causes", each
// missed row with a link to its cause, then every cause a miss points to, once. Keep each cause to
// what was measured (say when and where) and what would fix it.

/** @type {Record<string, { title: string, text: string }>} */
export const CAUSES = {
  'operation-cpu': {
    title: 'CPU per request above the hand-minimal server',
    text:
      'Under load each server is CPU-bound on its one core, so its req/s is the inverse of its CPU time per request, and the ratio to the hand-minimal server is the ratio of their CPU per request. ' +
      'Per round in the full run of 2026-12-01 22:43 UTC (server CPU per request at 50 connections; hand-minimal / HTTP layer alone / clean checkpoint): 58 / 74 / 98 µs, 59 / 68 / 101, 81 / 123 / 191, 55 / 73 / 111, 66 / 84 / 120. ' +
      'The row sits at its threshold: 55% (rounds 43–59%) in that run, 64.5% (rounds 59–80%) in the next full run (2026-12-01 23:55 UTC), with the code unchanged on this path. ' +
      'So the runtime API’s HTTP layer with a free operation reaches about 78% of the hand-minimal server (the extra is route config, `server-timing`, the JSON depth check and operation metrics), and the clean checkpoint itself (core, memory store and provider) adds 24–38 µs, which leaves it at 55% (rounds 43–59%). ' +
      'A CPU profile of the clean checkpoint under that load (2026-12-01 23:05 UTC, `node --cpu-prof`): the kernel’s `writev` 17% (waking the load generator for every answer: twice the hand-minimal server’s cost per answer, because the daemon is the bottleneck and the load generator sleeps), idle 10%, core 12% (the memory store’s `#putCheckpoint` and its sorted indexes 2–3%, the deep-freeze check of committed records 1%), fastify 6%, server-http 5%, garbage collection 4%, zod 4%, pino 3%, prom-client 3%. ' +
      'Counted rather than timed (`pnpm --filter @runtimectl/server-http bench:instructions --only "clean runtime,hand-minimal"`, 2026-12-01 23:10 UTC): 347,521 user-space instructions per clean checkpoint against 265,433 for the hand-minimal server (bare GET 144,241), so in user space the checkpoint costs 1.31× the reference, which alone would allow 76%; the rest of the gap is the kernel’s per-answer cost above (19 µs of `writev` per clean checkpoint against 10 µs per hand-minimal answer in the profiles). ' +
      'What would have fixed it then: about 10 µs less CPU per clean checkpoint (107 → 97 µs at the hand-minimal server’s 58 µs). ' +
      'Since then the clean checkpoint itself grew (2026-12-05): quick runs of `server.bench.mjs --rounds 3 --diagnose` at 464e89c measured 58 / 81 / 141 µs (hand-minimal / HTTP layer alone / clean checkpoint), 42% of the hand-minimal server’s req/s, the HTTP layer unchanged and the operation 60 µs where it was 26. ' +
      'Sequential clean checkpoints through core in one process (no HTTP, memory store and provider) measured at 23 commits spread over the 184 merged since 80e8bf6 (the run that met the row at 64.5%): 14 µs of CPU each there, 22 after the dirty-tracking rules (the fleet marks a runtime dirty before its provider runs), 33 after N-way checkout, 35 after manifests, retention and webhooks, 38–41 at 464e89c — no single regression, each feature the seed and later issues require on this path (a fleet-wide lease on the reused snapshot, an event in the log, the manifest root of the clean checkpoint, retention marks, idle activity, background-process accounting) adding a few µs. ' +
      'Taken back since, counted with callgrind over 4,000 clean checkpoints after a settled JIT: 185,000 → 141,000 instructions per checkpoint (80e8bf6: 70,000), by replacing the two Proxies every store call went through with plain objects over bound methods, and by building the records the memory store keeps frozen so it copies none of them; the Idempotency-Key hooks no longer cost three promises per request. ' +
      'The like-for-like reference now measured beside it (the hand-assembled features in front of the same clean checkpoint through core, minimal-work-server.mjs) cost as much as the runtime API in three quick runs on a noisy machine (server CPU per request: 169, 202 and 276 µs against the API’s 186, 136 and 248 µs): the gap to the canned answer is the operation, not the API’s HTTP layer. ' +
      'What would fix it: the operation back near its 26 µs (about 35 µs less, more than the 10 µs this target was set to need), or a reference that does the same work — the clean checkpoint through core behind the hand-assembled features, as the dirty row’s reference already is — since the canned answer now omits work every clean checkpoint must do.',
  },
  'dirty-cpu': {
    title: 'A dirty checkpoint costs two to three times the hand-minimal server',
    text:
      'With 50 requests always in flight, a request waits for the ones queued before it (p50 ≈ 50 × the CPU per request) and the p99 adds the host’s hiccups and a scavenge; against the hand-minimal server, which pays the same hiccups, the p99 ratio therefore follows the ratio of CPU per request. ' +
      'Per round in the full run of 2026-12-01 22:43 UTC (server CPU per request, `runtimed` on `write-file, checkpoint` vs the hand-minimal server; then the checkpoint’s p99 ratio): 243 vs 113 µs (2.15×) → 1.61×; 297 vs 121 (2.45×) → 2.76×; 131 vs 85 (1.54×) → 1.15×; 138 vs 48 (2.88×) → 3.90×; 265 vs 92 (2.88×) → 2.39×. The round where the daemon’s CPU was 1.54× the reference met the target; the others did not. ' +
      'The next full run (2026-12-01 23:55 UTC): 139 vs 60 µs (2.3×) → 1.71×; 216 vs 115 (1.9×) → 1.92×; 156 vs 61 (2.6×) → 1.70×; 173 vs 63 (2.7×) → 3.50×; 137 vs 56 (2.4×) → 1.39×: median 1.71×. ' +
      'Every request here does real work the canned answer does not: `write-file` decodes base64 and writes the memory provider’s file system; the checkpoint snapshots it (a copy), records an intent and commits three records; `runtimed` adds its Idempotency-Key hooks and operation logging. A profile under this load (2026-12-01 23:00 UTC): kernel `writev` 14%, core 15%, prom-client 4% (request and provider-call histograms), the memory provider 3%, random bytes for new ids 2%, garbage collection 6%. ' +
      'What would fix it: the daemon’s CPU per `write-file` and dirty checkpoint at or below about 1.3× the hand-minimal server’s (≈ 75 µs at its 58 µs; 130–300 µs measured), i.e. halving the operation path on top of the clean checkpoint’s fixes above; or a target that compares like with like (the same `write-file, checkpoint` workload on a hand-minimal server that does the operation through core).',
  },
  'absolute-latency': {
    title: 'An absolute latency target on a shared machine',
    text:
      'The bare route’s p50 in the same rounds (the reference) moves with the machine’s load, and the daemon stays at about 2× it: the extra is its CPU per request (see [the clean checkpoint’s cause](#cause-cpu-per-request-above-the-hand-minimal-server)). What would fix it: the same, or the target read against the reference in the same run.',
  },
  'mcp-call-path': {
    title: 'An MCP tool call crosses two more process boundaries than the HTTP request',
    text:
      'The tool call goes bench → (stdio, JSON-RPC) → runtimectl-mcp → (@runtimectl/client, HTTP) → runtimed; the reference is the HTTP request alone, sent from the bench process as clients send it (the built-in fetch, with an Idempotency-Key). ' +
      'Profiled 2026-12-06 05:55–06:45 UTC (`node --cpu-prof` and `perf` on the server process, CPU per thread from /proc): the server spent 2.5–3.9 ms of CPU per call on its busy core, most of it in the built-in fetch (undici makes a WHATWG Request, a Response and streams per request: 1.19 ms of CPU per checkpoint on one core, against 0.40 ms for node:http with a keep-alive agent), while the validations suspected before cost almost nothing: warm, each zod parse on the path takes under 1.1 µs (the JSON-RPC message 0.4–0.6, the tools/call request 0.5, its result 1.1, the tool input 0.1, the client’s request check 0.3 and answer parse 0.6 µs), and indenting the result as text 0.2 µs. ' +
      'What was done: the MCP server’s client (stdio and `POST /mcp`) sends through `createNodeHttpFetch` of @runtimectl/client (node:http, kept-alive connections, a JSON answer read whole without a Response), and results are compact JSON. The server’s CPU per call went from 2.70 to 1.50 ms (3.27 to 1.73 in a second run), same rounds. ' +
      'Measured after it, 2026-12-06 06:43–06:56 UTC: this section (full, 5 rounds) at 2.13× before (MCP p50 3.48 ms against HTTP 1.77 ms) and 1.39× after (1.92 against 1.54 ms; rounds 1.24–1.47×), 1.33× in the run recorded here (1.69 against 1.27 ms; rounds 1.13–1.45×); in the same rounds of one harness (four MCP servers on core 1 against one runtimed, alternating in blocks of 20, 400 calls each), before 2.34×, after 1.49×, a server whose tool makes one bare node:http request (no client, no checks, no Response) 1.29×, a tools/call that asks no daemon 0.24× and a ping 0.15×. ' +
      'What is left is the shape, not a cost of ours: the SDK’s tools/call round trip over stdio alone is 0.30 ms here (the canned-answer figure beside this row: 0.19× the HTTP p50, of which the ping is 0.14 ms), so an MCP call is at least about 1.2× the HTTP request even when the server’s request costs what the bench’s own does; and on this 2-core machine the server’s request costs 0.2–0.4 ms more than the bench’s (a fresh process each round, whose JIT warms over 440 calls, on a core it shares with the bench). ' +
      'What would fix it: nothing left of that size on our side; the target read as the overhead in milliseconds (0.4 ms at p50 here, which a model’s own latency dwarfs), or set at 1.5×.',
  },
  'fleet-saturated-machine': {
    title: 'Three node processes on a saturated 2-core machine',
    text:
      'The fleet’s own work is not what moves this ratio. Measured in the same rounds: the fleet with every request sent to one of its nodes (same schema, three nodes alive and heartbeating, the same leases, fences and dirty-state commits per request) is at 0.93× one node (median of 46 round × operation pairs over seven runs on 2026-12-02 07:17–08:02 UTC, quick and full; range 0.51–2.12×, above 1.3× in 2 of 46), while round-robin over the three nodes is at 1.09× (range 0.46–2.39×, above 1.3× in 14 of 46). The emulator serves the same calls in every arm (per 40-step sequence: 40 snapshot, 40 delete_template, 40 files, 41 filesystem; round-robin adds one `connect` per other node, once), and round-robin raises the provider time (the E2B SDK call to the emulator, no store work in it) about as much as the rest (see the fleet section’s table). ' +
      'Those runs had a 1-minute load average of 5–16 on 2 cores, and other sessions used 63–72% of the machine’s CPU during the full ones: each request round-robin goes to a process that has been idle for two requests, and on a machine with no idle core its wake-up waits for the scheduler. Which arm the noise hits changes from round to round (the order of arms rotates). ' +
      'What would fix it: run the section on a quiet machine (or pin each node to a core, as the HTTP sections pin theirs, which 3 nodes, an emulator and PostgreSQL on 2 cores cannot); the figure that speaks for the fleet’s store work is the pinned arm’s.',
  },
  'fs-file-per-blob': {
    title: 'One file per blob against one archive',
    text:
      'A first checkpoint of the 10,000-file workspace creates 10,000 blob files (and renames each to its final name), where `tar -cf` writes one file. Measured on this machine (ext4, 2026-12-02 10:55 UTC, load average 9–15): creating 5,000 one-byte files spread over 256 directories takes 0.68 s (2.45 s in one directory, which is why blobs are staged in their shard), renaming them 0.09 s; `tar -cf` of the whole 200 MiB workspace 0.35–0.8 s, and 0.64–1.23 s with a `sync -f` after it (a checkpoint is durable when it answers; the durable-tar row shows the first checkpoint at 7.5× that). ' +
      'What was done, measured one round at a time in the fs bench (2026-12-02 10:09–11:03 UTC): one fsync per blob and per shard replaced by one `syncfs` before the renames (217 s → 13.7 s); file work in direct system calls instead of libuv’s thread pool, whose round trips waited for two thread wake-ups each at ~90% CPU pressure (13.7 s → 4–10 s, moving with the load); blobs staged in their shard and renamed, not linked and unlinked; gzip level 1 tried on a 16 KiB sample first. ' +
      'What would bring it to its floor: pack small blobs (as git’s packfiles: the checkpoint’s small contents appended to one pack file with an index by hash, garbage collection rewriting packs), so a first checkpoint creates a handful of files. ' +
      'The target itself is below that floor: the floor rows of the same run time walking, reading and hashing every file (nothing written) above 1.5× the bare tar, and one durable pack against the durable tar; ≤ 1.5× the durable tar would compare like with like (see RESULTS.md, issue 21).',
  },
  'fs-walk': {
    title: 'A checkpoint that changed one file still walks 10,000',
    text:
      'A checkpoint after a 1 MiB change reads no unchanged file (the stat index), but it still lists 1,003 directories and lstats 10,000 entries, writes a 1.7 MiB manifest (fsynced) and a 1.5 MiB stat index: instrumented on 2026-12-02 10:53 UTC (load average 9–15), walk 400–800 ms, manifest 60–80 ms, index 55–90 ms; the 10,000 lstats alone take 110–150 ms in a bare loop here. ' +
      'So the two checkpoint targets pull against each other: at the first checkpoint’s target (1.5× tar, about 1 s here) 5% is 50 ms, less than the lstats alone. The measured 0.07× is as close as it is only because the first checkpoint is slow. ' +
      'The walk floor row of the same run sets the lstat walk against that budget. Not walking needs the kernel to say what changed, and Node’s only way, `fs.watch` (inotify), loses changes silently past `fs.inotify.max_queued_events`: libuv discards `IN_Q_OVERFLOW` (packages/provider-fs/bench/watch-overflow.mjs: 20,000 files written, 8,192 reported, no error); fanotify needs `CAP_SYS_ADMIN`, and an overlay in the namespace sandbox misses writes made outside it. The target needs restating against the walk, not the first checkpoint (see RESULTS.md, issue 21).',
  },
  'fleet-burst-cpu': {
    title: 'Thirty checkpoints at once need CPU this machine did not have',
    text:
      'One dirty checkpoint alone spends about 80–450 ms outside the injected snapshot latency on this machine (HTTP, lease, intent and commits in PostgreSQL, the SDK call, the emulator copying the sandbox). Thirty at once need thirty times that work, on two cores that were 100% busy during every burst measured (`/proc/stat`), mostly with other sessions’ work: in the full run of 2026-12-02 07:57 UTC the three nodes used 0.74 CPU-seconds and the emulator 0.41 during a 5.0 s burst (10 CPU-seconds on the machine), about a ninth of it. ' +
      'The emulator’s call log shows where the wall time went: the first snapshot call starts 0.2–1.2 s after the requests are sent and the last one 0.5–1.4 s after the first (the requests queue for CPU before they reach the provider), and each snapshot call takes 4–75% longer than the injected latency (its copy, 30 at once). Through one node the same burst took 2.56× one alone in that run and 3.24× in the run before (3 nodes: 4.10× and 3.57×): spreading over three processes buys no CPU on a saturated machine. ' +
      'Not explained yet: the three nodes used more CPU for the same 30 checkpoints than one node did (0.74 vs 0.27 CPU-seconds in that run, 0.59 vs 0.39 in a quick run at 07:56 UTC); a candidate, not measured, is each node opening its own PostgreSQL and emulator connections for the burst (pools of up to 10 per node, idle ones closed between bursts). ' +
      'What would fix it: a machine with idle cores for the run (about 1.2 CPU-seconds of the nodes and emulator spread over 2 cores is 0.6 s, inside the one extra latency the target allows, PostgreSQL aside); nothing in the fleet serialises the checkpoints (a lease takes an advisory lock on its runtime id, not a table lock).',
  },
  'retention-full-records': {
    title: 'A retention pass reads every checkpoint’s full record to plan on six of its fields',
    text:
      'Full run of the retention section, 2026-12-02 14:20 UTC (load average 21 → 11 on 2 cores, 75% of the CPU used by other work): a steady pass over 100,000 checkpoints took 15.6 s of daemon time (rounds 11.6–17.3 s), a pass deleting 1,000 snapshots 15.3 s (13.9–27.2 s). ' +
      'A CPU profile of the same pass in-process (`RuntimeService.applyRetention()` over `createSqliteStore` on the 100,000-checkpoint file, memory provider, `keepLast: 10`, `node --cpu-prof`, three passes of 9.5–12.8 s at load 10–13, 2026-12-02 14:03 UTC, before the change below): garbage collection 45%, the SQLite read of `listSnapshottedCheckpoints` (every column, session state included) 20%, `fromJson` (parsing each record’s session, metadata and snapshot names) 11%, `listSessions` 4%, `checkpointFromRow` 2%, the plan itself (`planRetention`, `ownVerdict`, `byRuntime`) about 8%. ' +
      'So about four fifths of a pass is reading, parsing and collecting full checkpoint records — each carries its runtime’s session state (1 KB here) — for a plan that uses the checkpoint id, runtime id, provider, snapshot id, pin and created/last-used times. The same keyset pages in raw SQL on a 20,000-checkpoint file (better-sqlite3, load 12): every column 1,364 ms, those columns only 161 ms. ' +
      'A deleting pass adds, per condemned snapshot, a control operation: the owners’ leases, the snapshot’s delete lease, a re-plan on the sharing runtimes’ full records, the provider call, and the record and event commits (synchronous=full) — in the quick run of 14:13 UTC (20,000 checkpoints) 200 deletions made a 2.3 s pass 6.5 s (about 20 ms each); in the full run the deleting pass stayed within the steady passes’ spread, the machine’s load (21 → 11) moving them more than the deletions. ' +
      'What would fix it: a store read of the plan’s fields only (a narrow `listSnapshottedCheckpoints` variant in core’s `RuntimeStore`, selecting those columns in SQLite and PostgreSQL), which removes the session parse and most of the garbage; the plan’s ~8% then dominates and is linear. That changes core’s store contract and the three stores, outside the bench branch that measured it; the 2 s target is about 5–8× away on this machine at this load.',
  },
  'retention-pass-shares-the-loop': {
    title: 'Passes back to back still take CPU from the daemon’s one core',
    text:
      'Before the change on this branch, a pass over a synchronous store (SQLite) read all its pages without one turn of the event loop (each `await` was on an already-resolved promise): every request arriving during the read waited for all of it. In the quick run of 2026-12-02 14:02 UTC (20,000 checkpoints, load 12) the clean checkpoint p99 was 2,361 ms with a pass against 852 ms without (2.77×). ' +
      'Core’s pass now reads pages of 250 and yields (`setImmediate`) between them (core test: a pass reading a store of several pages lets other work run between its pages). In-process after the change, the longest event-loop stall during a 100,000-checkpoint pass was 220–265 ms (`monitorEventLoopDelay`, load 20), and in the full run of 14:20 UTC the p99 ratio was 1.65× (rounds 1.49–1.79×; 220 ms against 147 ms), p50 55 against 40 ms. ' +
      'What remains is the pass’s CPU: the daemon is one process on one core, and under 10 closed-loop connections a pass stretches to 25–27 s (it gets its turns between requests) while taking a share of the core the checkpoints then lack; single pages of 250 full records and the plan over all checkpoints at once are the longest stalls. What would fix it: the narrow read of the cause above (an eighth of the bytes, little garbage) would cut both the pass’s CPU and its per-page stalls; beyond that, planning runtime by runtime instead of over the whole store at once.',
  },
};

/** Row id → the cause that explains its miss. */
export const CAUSE_OF_ROW = {
  'mcp.checkpoint.clean.p50': 'mcp-call-path',
  'fs.first-checkpoint': 'fs-file-per-blob',
  'fs.changed-checkpoint': 'fs-walk',
  'http.checkpoint.clean.c1.throughput': 'operation-cpu',
  'http.checkpoint.clean.c50.throughput': 'operation-cpu',
  'http.checkpoint.clean.c50.p99': 'operation-cpu',
  'http.exec.c50.p99': 'operation-cpu',
  'http.checkpoint.dirty.c50.p99': 'dirty-cpu',
  'http.checkpoint.dirty.c1.p50': 'absolute-latency',
  'fleet.write.overhead': 'fleet-saturated-machine',
  'fleet.checkpoint.overhead': 'fleet-saturated-machine',
  'fleet.parallel-checkpoints': 'fleet-burst-cpu',
  'retention.pass.steady': 'retention-full-records',
  'retention.clean-checkpoint.p99': 'retention-pass-shares-the-loop',
};

/** The anchor GitHub gives the heading `### Cause: <title>`. */
export const causeAnchor = (causeId) => `cause-${CAUSES[causeId].title.toLowerCase().replace(/[^a-z0-9 -]/g, '').replace(/ /g, '-')}`;
