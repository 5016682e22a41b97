import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { E2BEmulatorAdminClient } from '@runtimectl/e2b-emulator';
import { createTestSchema, type TestSchema } from '@runtimectl/testkit/postgres';
import { freePort, removeTree, withinDeadline } from '@runtimectl/testkit/server-process';
import { e2bDaemonEnv } from './e2b-rig';
import { Api } from './http';
import { startPausableProxy, type PausableProxy } from './pausable-proxy';
import { startEmulatorProcess, startRuntimed, type EmulatorProcess, type RuntimedProcess } from './processes';

/** Several processes start at once, on a machine other work may load: each gets two minutes. */
const START_TIMEOUT_MS = 120_000;

export interface FleetRigOptions {
  /** How many runtimed nodes (default 3). */
  nodes?: number;
  /** fleet.lease_ms of every node (default 3000: short, so a lapsed lease costs a test little time). */
  leaseMs?: number;
  /** Nodes whose database connection goes through their own pausable TCP proxy (`rig.proxies`). */
  proxied?: number[];
  /** Require this bearer token on every node. */
  token?: string;
  /** More RUNTIMECTL_* settings for every node. */
  env?: Record<string, string>;
}

/** One node of the fleet: its identity and port survive `restart`. */
export interface FleetNode {
  index: number;
  nodeId: string;
  port: number;
  /** `http://127.0.0.1:<port>`: where it listens and the URL it advertises. */
  url: string;
  stateDir: string;
  /** Null while the node is down (killed and not restarted yet). */
  process: RuntimedProcess | null;
  api: Api;
}

/**
 * N `runtimed` nodes on ONE PostgreSQL schema (the run's server, a schema per rig) and one E2B
 * emulator process: the fleet of issue 20 on one machine. Each node has its own state directory,
 * node id and fixed port (`fleet.advertise_url` = its own URL), all with the same E2B key, token,
 * fleet secret (a random one per rig: nodes on PostgreSQL need it) and installation. Fleet
 * settings are passed as RUNTIMECTL_FLEET_* variables; a daemon without
 * the fleet (before issue 20) reads only the variables of keys it knows, so it starts and simply
 * ignores them.
 */
export interface FleetRig {
  /** The run's PostgreSQL (see vitest.config.ts) and the rig's own schema on it. */
  postgres: TestSchema & { port: number };
  schema: string;
  emulator: EmulatorProcess;
  admin: E2BEmulatorAdminClient;
  nodes: FleetNode[];
  /** `rig.proxies.get(i)`: node i's database proxy (only for `options.proxied`). */
  proxies: Map<number, PausableProxy>;
  leaseMs: number;
  apiKey: string;
  /** URLs of the nodes that are up now. */
  liveUrls(): string[];
  /** SIGKILL node i (its state directory stays). */
  kill(index: number): Promise<void>;
  /** Starts node i again: same node id, port and state directory. */
  restart(index: number): Promise<void>;
  /** The last log lines of every node, for a failure report. */
  logTails(chars?: number): string;
  /** Stops every node, the proxies, the emulator and PostgreSQL; resolves with each node's exit code. */
  stop(): Promise<Array<number | null>>;
}

export async function startFleetRig(options: FleetRigOptions = {}): Promise<FleetRig> {
  const count = options.nodes ?? 3;
  const leaseMs = options.leaseMs ?? 3000;
  const apiKey = `e2b_${randomBytes(20).toString('hex')}`;
  const fleetSecret = randomBytes(32).toString('hex');
  const created = await withinDeadline({ server: 'the fleet rig', phase: 'create its schema', deadlineMs: START_TIMEOUT_MS }, () => createTestSchema('fleet'));
  const postgres = { ...created, port: Number(new URL(created.url).port) };
  const schema = postgres.schema;
  const proxies = new Map<number, PausableProxy>();
  const nodes: FleetNode[] = [];
  let emulator: EmulatorProcess | undefined;

  const databaseUrl = (index: number) => {
    const url = new URL(postgres.url);
    const proxy = proxies.get(index);
    if (proxy) url.port = String(proxy.port);
    return url.toString();
  };
  const launch = async (node: FleetNode) => {
    node.process = await startRuntimed({
      args: ['--provider', 'e2b', '--store', 'postgres'],
      port: node.port,
      stateDir: node.stateDir,
      startTimeoutMs: START_TIMEOUT_MS,
      secrets: [apiKey, fleetSecret, ...(options.token ? [options.token] : [])],
      env: {
        ...e2bDaemonEnv(emulator!.url, apiKey, { token: options.token }),
        RUNTIMECTL_DATABASE_URL: databaseUrl(node.index),
        RUNTIMECTL_STORE_SCHEMA: schema,
        RUNTIMECTL_FLEET_NODE_ID: node.nodeId,
        RUNTIMECTL_FLEET_ADVERTISE_URL: node.url,
        RUNTIMECTL_FLEET_LEASE_MS: String(leaseMs),
        RUNTIMECTL_FLEET_FORWARD: 'true',
        RUNTIMECTL_FLEET_SECRET: fleetSecret,
        ...options.env,
      },
    });
  };
  const stopAll = async (): Promise<Array<number | null>> => {
    const codes = await Promise.all(nodes.map((node) => node.process?.stop() ?? Promise.resolve(null)));
    for (const node of nodes) removeTree(node.stateDir);
    await Promise.all([...proxies.values()].map((proxy) => proxy.close()));
    await emulator?.stop();
    await postgres.drop();
    return codes;
  };

  try {
    emulator = await startEmulatorProcess({ startTimeoutMs: START_TIMEOUT_MS });
    for (const index of options.proxied ?? []) proxies.set(index, await startPausableProxy(postgres.port));
    for (let index = 0; index < count; index += 1) {
      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      nodes.push({
        index,
        nodeId: `node-${index}`,
        port,
        url,
        stateDir: mkdtempSync(join(tmpdir(), `reliability-fleet-${index}-`)),
        process: null,
        api: new Api(url, options.token),
      });
    }
    // The first node creates the schema; the others then start together.
    await launch(nodes[0]!);
    await Promise.all(nodes.slice(1).map(launch));
  } catch (error) {
    await stopAll();
    throw error;
  }

  return {
    postgres,
    schema,
    emulator,
    admin: emulator.admin,
    nodes,
    proxies,
    leaseMs,
    apiKey,
    liveUrls: () => nodes.filter((node) => node.process?.alive()).map((node) => node.url),
    kill: async (index) => {
      const node = nodes[index]!;
      await node.process?.kill();
      node.process = null;
    },
    restart: async (index) => {
      const node = nodes[index]!;
      await node.process?.kill();
      await launch(node);
    },
    logTails: (chars = 3000) =>
      nodes.map((node) => `--- ${node.nodeId} (${node.process ? 'up' : 'down'}) ---\n${node.process?.logs.tail().slice(-chars) ?? ''}`).join('\n'),
    stop: stopAll,
  };
}
