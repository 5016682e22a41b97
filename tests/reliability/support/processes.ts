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
function firstLine(started: Started, pattern: RegExp, stderr: () => string): Promise<string> {
  let stdout = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start line within ${START_TIMEOUT_MS} ms: ${stderr().slice(-2000)}`)), START_TIMEOUT_MS);
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
export async function startEmulatorProcess(): Promise<EmulatorProcess> {
  const started = launch(EMULATOR, ['--port', '0', '--host', '127.0.0.1'], {});
  let stderr = '';
  started.child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-20_000)));
  const line = await firstLine(started, /^\{.*"apiUrl"/, () => stderr);
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
}

/** Spawns the built `runtimed` on a free loopback port with a fresh state directory; waits for its banner. */
export async function startRuntimed(options: RuntimedOptions = {}): Promise<RuntimedProcess> {
  const stateDir = mkdtempSync(join(tmpdir(), 'reliability-runtimed-'));
  const started = launch(RUNTIMED, ['--host', '127.0.0.1', '--port', '0', '--state-dir', stateDir, ...(options.args ?? [])], {
    RUNTIMECTL_LOG_LEVEL: 'debug',
    ...options.env,
  });
  const logs = new SecretWatch(options.secrets ?? []);
  started.child.stderr!.on('data', (chunk: Buffer) => logs.feed(chunk.toString()));
  const banner = await firstLine(started, / listening on /, () => logs.tail());
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
      rmSync(stateDir, { recursive: true, force: true });
      return code;
    },
  };
}
