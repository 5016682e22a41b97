import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { E2BEmulatorAdminClient } from '@runtimectl/e2b-emulator';
import { removeTree, startServerProcess, type ServerProcess } from '@runtimectl/testkit/server-process';
import { SecretWatch } from './secret-watch';

const RUNTIMED = fileURLToPath(new URL('../../../apps/daemon/dist/main.js', import.meta.url));
const EMULATOR = fileURLToPath(new URL('../../../packages/e2b-emulator/dist/bin.js', import.meta.url));
const START_TIMEOUT_MS = 30_000;

/** The environment of a process this suite starts: nothing of the runner's but PATH and HOME. */
function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: process.env.HOME, ...env };
}

/** The exit code of a stopped process (null when a signal ended it). */
async function codeOf(stopped: Promise<{ code: number | null }>): Promise<number | null> {
  return (await stopped).code;
}

export interface EmulatorProcess {
  url: string;
  admin: E2BEmulatorAdminClient;
  pid: number;
  stop(): Promise<number | null>;
}

/** The E2B emulator as its own process (`e2b-emulator --port 0`), driven over its admin HTTP API. */
export async function startEmulatorProcess(options: { startTimeoutMs?: number } = {}): Promise<EmulatorProcess> {
  const server = await startServerProcess({
    server: 'the e2b emulator',
    command: process.execPath,
    args: [EMULATOR, '--port', '0', '--host', '127.0.0.1'],
    env: childEnv({}),
    readyLine: /^\{.*"apiUrl"/,
    deadlineMs: options.startTimeoutMs ?? START_TIMEOUT_MS,
  });
  const { apiUrl } = JSON.parse(server.readyLine) as { apiUrl: string };
  return { url: apiUrl, admin: new E2BEmulatorAdminClient(apiUrl), pid: server.pid, stop: () => codeOf(server.stop()) };
}

export interface RuntimedOptions {
  /** Extra command-line arguments (`--provider e2b` …). */
  args?: string[];
  /** RUNTIMECTL_* settings and the variables they name. */
  env?: Record<string, string>;
  /** Strings that must never appear in the daemon's output (tokens, keys). */
  secrets?: string[];
  /** Listen on this port (default: any free one). */
  port?: number;
  /** Use this state directory and keep it when the daemon stops (default: a fresh one, removed on stop). */
  stateDir?: string;
  /** How long the banner may take (default 30 s; several daemons starting at once on a loaded machine need more). */
  startTimeoutMs?: number;
}

export interface RuntimedProcess {
  url: string;
  /** The start line (address, providers, store, auth, local isolation). */
  banner: string;
  pid: number;
  stateDir: string;
  /** Log bytes seen on stderr and whether a secret was among them (checked chunk by chunk, nothing kept whole). */
  logs: SecretWatch;
  /** Whether the process is still running (a crash would make this false). */
  alive(): boolean;
  /** Resident set size from /proc/<pid>/status (VmRSS), in bytes. */
  rssBytes(): number;
  stop(): Promise<number | null>;
  /** SIGKILL (a crash: nothing is flushed or closed); resolves once the process is gone. Keeps the state directory. */
  kill(): Promise<void>;
}

/** Spawns the built `runtimed` on a free loopback port with a fresh state directory; waits for its banner. */
export async function startRuntimed(options: RuntimedOptions = {}): Promise<RuntimedProcess> {
  const stateDir = options.stateDir ?? mkdtempSync(join(tmpdir(), 'reliability-runtimed-'));
  const logs = new SecretWatch(options.secrets ?? []);
  let server: ServerProcess;
  try {
    server = await startServerProcess({
      server: 'runtimed',
      command: process.execPath,
      args: [RUNTIMED, '--host', '127.0.0.1', '--port', String(options.port ?? 0), '--state-dir', stateDir, ...(options.args ?? [])],
      env: childEnv({ RUNTIMECTL_LOG_LEVEL: 'debug', ...options.env }),
      onLine: (line, stream) => stream === 'stderr' && logs.feed(`${line}\n`),
      readyLine: / listening on /,
      deadlineMs: options.startTimeoutMs ?? START_TIMEOUT_MS,
    });
  } catch (error) {
    if (options.stateDir === undefined) removeTree(stateDir);
    throw error;
  }
  const pid = server.pid;
  return {
    url: /listening on (http:\/\/\S+)/.exec(server.readyLine)![1]!,
    banner: server.readyLine,
    pid,
    stateDir,
    logs,
    alive: server.alive,
    rssBytes: () => {
      const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (!match) throw new Error(`no VmRSS for pid ${pid}`);
      return Number(match[1]) * 1024;
    },
    stop: async () => {
      const code = await codeOf(server.stop());
      if (options.stateDir === undefined) removeTree(stateDir);
      return code;
    },
    kill: async () => {
      await server.kill();
    },
  };
}
