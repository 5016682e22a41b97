import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { E2BEmulatorAdminClient } from '@runtimectl/e2b-emulator';
import { SecretWatch } from './secret-watch';

const RUNTIMED = fileURLToPath(new URL('../../../apps/daemon/dist/main.js', import.meta.url));
const EMULATOR = fileURLToPath(new URL('../../../packages/e2b-emulator/dist/bin.js', import.meta.url));
const START_TIMEOUT_MS = 30_000;

/** A child process this suite started, stopped by its own pid only. */
interface Started {
  child: ChildProcess;
  exited: Promise<number | null>;
}

function launch(command: string, args: string[], env: NodeJS.ProcessEnv): Started {
  const child = spawn(process.execPath, [command, ...args], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, exited };
}

/** Resolves with the first stdout line matching `pattern`; rejects if the process exits or stays silent. */
function firstLine(started: Started, pattern: RegExp, stderr: () => string, timeoutMs = START_TIMEOUT_MS): Promise<string> {
  let stdout = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      // A process that did not start in time is not left behind.
      started.child.kill('SIGKILL');
      reject(new Error(`no start line within ${timeoutMs} ms: ${stderr().slice(-2000)}`));
    }, timeoutMs);
    started.child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const line = stdout.split('\n').find((candidate) => pattern.test(candidate));
      if (line === undefined) return;
      clearTimeout(timer);
      resolve(line);
    });
    void started.exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before starting: ${stderr().slice(-2000)}`));
    });
  });
}

async function stop(started: Started, graceMs = 15_000): Promise<number | null> {
  if (started.child.exitCode !== null || started.child.signalCode !== null) return started.exited;
  started.child.kill('SIGTERM');
  const timer = setTimeout(() => started.child.kill('SIGKILL'), graceMs);
  try {
    return await started.exited;
  } finally {
    clearTimeout(timer);
  }
}

export interface EmulatorProcess {
  url: string;
  admin: E2BEmulatorAdminClient;
  pid: number;
  stop(): Promise<number | null>;
}

/** The E2B emulator as its own process (`e2b-emulator --port 0`), driven over its admin HTTP API. */
export async function startEmulatorProcess(options: { startTimeoutMs?: number } = {}): Promise<EmulatorProcess> {
  const started = launch(EMULATOR, ['--port', '0', '--host', '127.0.0.1'], {});
  let stderr = '';
  started.child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-20_000)));
  const line = await firstLine(started, /^\{.*"apiUrl"/, () => stderr, options.startTimeoutMs);
  const { apiUrl } = JSON.parse(line) as { apiUrl: string };
  return { url: apiUrl, admin: new E2BEmulatorAdminClient(apiUrl), pid: started.child.pid!, stop: () => stop(started) };
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
  const port = String(options.port ?? 0);
  const started = launch(RUNTIMED, ['--host', '127.0.0.1', '--port', port, '--state-dir', stateDir, ...(options.args ?? [])], {
    RUNTIMECTL_LOG_LEVEL: 'debug',
    ...options.env,
  });
  const logs = new SecretWatch(options.secrets ?? []);
  started.child.stderr!.on('data', (chunk: Buffer) => logs.feed(chunk.toString()));
  const banner = await firstLine(started, / listening on /, () => logs.tail(), options.startTimeoutMs);
  const pid = started.child.pid!;
  return {
    url: /listening on (http:\/\/\S+)/.exec(banner)![1]!,
    banner,
    pid,
    stateDir,
    logs,
    alive: () => started.child.exitCode === null && started.child.signalCode === null,
    rssBytes: () => {
      const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (!match) throw new Error(`no VmRSS for pid ${pid}`);
      return Number(match[1]) * 1024;
    },
    stop: async () => {
      const code = await stop(started);
      if (options.stateDir === undefined) rmSync(stateDir, { recursive: true, force: true });
      return code;
    },
    kill: async () => {
      if (started.child.exitCode === null && started.child.signalCode === null) started.child.kill('SIGKILL');
      await started.exited;
    },
  };
}
