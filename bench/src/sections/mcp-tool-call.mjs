// Issue 35: an MCP tool call against the same operation over plain HTTP. Per round: a fresh
// runtimed (memory provider and store, core 0) and the MCP server (packages/mcp, stdio, core 1)
// that an agent's MCP client would launch; a runtime checkpointed once, so every later checkpoint
// is of a clean runtime (the reuse path: the operation costs little, what is around it shows).
// Then, alternating in blocks, `checkpoint` as an MCP tools/call through the official SDK client
// and as one HTTP POST from the bench process, one at a time; p50 of each, ratio per round. Beside
// them, the same tools/call to the same server whose client answers at once without the daemon
// (packages/mcp/bench/canned-answer-server.mjs: the server's own per-call cost), and an MCP ping.
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { nodeOnCore, repoPath, startRuntimed, stopChild } from '../processes.mjs';
import { figureRow } from '../report/figures.mjs';
import { removeTree } from '../remove-tree.mjs';
import { median, quantileOfSorted } from '../stats.mjs';

const MCP_SERVER = repoPath('packages', 'mcp', 'dist', 'main.js');
const CANNED_ANSWER_SERVER = repoPath('packages', 'mcp', 'bench', 'canned-answer-server.mjs');
const BLOCK = 20;

async function oneRound({ calls, tmpRoot }) {
  const stateDir = mkdtempSync(join(tmpRoot, 'mcp-state-'));
  const daemon = await startRuntimed({ args: ['--provider', 'memory', '--store', 'memory', '--state-dir', stateDir], core: 0 });
  const client = new Client({ name: 'bench', version: '0.0.0' });
  const canned = new Client({ name: 'bench', version: '0.0.0' });
  try {
    // As every client sends it (the TypeScript and Python clients, the CLI, the MCP server's): with an Idempotency-Key.
    const http = (path, body) =>
      fetch(`${daemon.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'idempotency-key': randomUUID() }, body: JSON.stringify(body) }).then((response) => response.json());
    const runtimeId = (await http('/api/v1/runtimes/open', { conversation_id: 'bench', sender_id: 'mcp' })).runtime.runtime_id;
    await http('/api/v1/runtimes/checkpoint', { runtime_id: runtimeId });
    // What every later checkpoint answers: the canned-answer server answers with it.
    const cleanCheckpoint = await http('/api/v1/runtimes/checkpoint', { runtime_id: runtimeId });
    const launch = (script, env) => {
      const [command, args] = nodeOnCore(1, [script]);
      return new StdioClientTransport({ command, args, env: { PATH: process.env.PATH, ...env } });
    };
    await client.connect(launch(MCP_SERVER, { RUNTIMECTL_URL: daemon.url }));
    await canned.connect(launch(CANNED_ANSWER_SERVER, { RUNTIMECTL_BENCH_CHECKPOINT: JSON.stringify(cleanCheckpoint) }));
    const viaHttp = async () => {
      const body = await http('/api/v1/runtimes/checkpoint', { runtime_id: runtimeId });
      if (!body.reused_backend_snapshot) throw new Error(`HTTP checkpoint did not take the clean path: ${JSON.stringify(body)}`);
    };
    const toolCall = (mcp) => async () => {
      const result = await mcp.callTool({ name: 'checkpoint', arguments: { runtime_id: runtimeId } });
      if (result.isError || !result.structuredContent?.reused_backend_snapshot) throw new Error(`MCP checkpoint failed: ${JSON.stringify(result.content)}`);
    };
    const viaMcp = toolCall(client);
    const viaCanned = toolCall(canned);
    // Warm every path (JIT, connections) before timing.
    for (let index = 0; index < BLOCK; index++) {
      await viaHttp();
      await viaMcp();
      await viaCanned();
    }
    const timings = { http: [], mcp: [], canned: [], ping: [] };
    const arms = [['http', viaHttp], ['mcp', viaMcp], ['canned', viaCanned]];
    for (let done = 0; done < calls; done += BLOCK) {
      for (const [name, call] of done % (2 * BLOCK) === 0 ? arms : [...arms].reverse()) {
        for (let index = 0; index < BLOCK; index++) {
          const startedAt = performance.now();
          await call();
          timings[name].push(performance.now() - startedAt);
        }
      }
    }
    // The protocol's own round trip (stdio, JSON-RPC, the SDK's message handling), no daemon call.
    for (let index = 0; index < calls / 2; index++) {
      const startedAt = performance.now();
      await client.ping();
      timings.ping.push(performance.now() - startedAt);
    }
    const p = (values, q) => quantileOfSorted([...values].sort((a, b) => a - b), q);
    return {
      http: { p50: p(timings.http, 0.5), p99: p(timings.http, 0.99) },
      mcp: { p50: p(timings.mcp, 0.5), p99: p(timings.mcp, 0.99) },
      canned: { p50: p(timings.canned, 0.5) },
      ping: { p50: p(timings.ping, 0.5) },
    };
  } finally {
    await client.close().catch(() => undefined);
    await canned.close().catch(() => undefined);
    await stopChild(daemon.child);
    await removeTree(stateDir);
  }
}

export async function measureMcpToolCall({ profile, tmpRoot, log }) {
  const { rounds, calls } = profile.mcp;
  const results = [];
  for (let round = 0; round < rounds; round++) {
    const result = await oneRound({ calls, tmpRoot });
    log?.(`  round ${round + 1}/${rounds}: MCP p50 ${result.mcp.p50.toFixed(2)} ms, HTTP p50 ${result.http.p50.toFixed(2)} ms`);
    results.push(result);
  }
  const rows = [
    figureRow({
      id: 'mcp.checkpoint.clean.p50',
      measurement: `MCP \`tools/call checkpoint\` of a clean runtime (stdio, official SDK client → runtimectl-mcp → runtimed), ${calls} calls one at a time: p50`,
      rounds: results.map((result) => result.mcp.p50),
      unit: 'ms',
      detail: `p99 ${Math.max(...results.map((result) => result.mcp.p99)).toFixed(2)} ms (worst round); the same tools/call answered without the daemon (the server's own cost) p50 ${median(results.map((result) => result.canned.p50)).toFixed(2)} ms; an MCP ping alone (stdio round trip, no daemon call) p50 ${median(results.map((result) => result.ping.p50)).toFixed(2)} ms`,
      reference: { label: 'the same checkpoint as one HTTP POST, same rounds: p50', rounds: results.map((result) => result.http.p50), unit: 'ms' },
      ratio: { label: 'MCP p50 / HTTP p50', rounds: results.map((result) => result.mcp.p50 / result.http.p50), unit: '×' },
      target: { text: '≤ 1.3× at p50', met: ({ ratio }) => ratio <= 1.3 },
    }),
  ];
  const details = [
    `Per round: a fresh \`runtimed --provider memory --store memory\` on core 0 and \`packages/mcp/dist/main.js\` (stdio) on core 1, launched by the official MCP TypeScript SDK client in the bench process; one runtime, checkpointed twice (the second answer is the one the canned-answer server gives), then ${calls} clean checkpoints each way, alternating in blocks of ${BLOCK} after ${BLOCK} warm-up calls of each. In the same blocks, the same tools/call to \`packages/mcp/bench/canned-answer-server.mjs\` (core 1): the same server whose client answers with that runtime's clean checkpoint at once, so MCP − it is the server's request to the daemon and it − ping is the SDK's tools/call handling with this package's tool code.`,
  ];
  return { rows, details, raw: results };
}
