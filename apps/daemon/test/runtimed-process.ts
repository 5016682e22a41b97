import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServerProcess } from '@runtimectl/testkit/server-process';
import { temporaryDirectory } from './temporary-directory';

/** A fresh state directory, removed after the test file. */
export function freshStateDir(): string {
  return temporaryDirectory('runtimed-state-');
}

export const RUNTIMED = fileURLToPath(new URL('../dist/main.js', import.meta.url));

/** A liveness bound, not a speed check: a start on a loaded CI machine took over 20 s. */
const START_DEADLINE_MS = 60_000;

export interface RuntimedProcess {
  url: string;
  banner: string;
  pid: number;
  stateDir: string;
  /** Everything the daemon wrote on stderr so far (its log). */
  stderr: () => string;
  /** Whether the daemon still runs (false once it died on its own or was stopped). */
  alive(): boolean;
  /** Sends `signal` (SIGKILL: to its whole group) and waits; resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Spawns the built `runtimed` on a free port in a fresh state directory and waits (bounded) for its banner. */
export async function startRuntimed(
  args: string[] = [],
  env: NodeJS.ProcessEnv = {},
  stateDir: string = freshStateDir(),
): Promise<RuntimedProcess> {
  let stderr = '';
  const server = await startServerProcess({
    server: 'runtimed',
    command: process.execPath,
    args: [RUNTIMED, '--port', '0', '--state-dir', stateDir, ...args],
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    onLine: (line, stream) => void (stream === 'stderr' && (stderr += `${line}\n`)),
    readyLine: / listening on /,
    deadlineMs: START_DEADLINE_MS,
  });
  return {
    url: /listening on (http:\/\/\S+)/.exec(server.readyLine)![1]!,
    banner: server.readyLine,
    pid: server.pid,
    stateDir,
    stderr: () => stderr,
    alive: server.alive,
    stop: async (signal = 'SIGTERM') => (await server.stop(signal)).code,
  };
}

/** Runs `runtimed` expecting it to refuse to start (in a fresh state directory unless given one); resolves with its exit code and stderr. */
/** How long a refusal may take before the daemon is taken to have started instead. */
const REFUSAL_WITHIN_MS = 45_000;

export function runtimedRefusal(
  args: string[],
  env: NodeJS.ProcessEnv = {},
  stateDir: string = freshStateDir(),
): Promise<{ code: number | null; stderr: string; stdout: string }> {
  const child = spawn(process.execPath, [RUNTIMED, '--state-dir', stateDir, ...args], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  // A daemon that starts instead of refusing must not outlive the test: killed, it reports code
  // null. Generous: on a loaded CI machine a refusal that needs the store first (PostgreSQL
  // migrations, then the bind) took over 10 s (issue 38's soak).
  const timer = setTimeout(() => child.kill('SIGKILL'), REFUSAL_WITHIN_MS);
  return new Promise((resolve) =>
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr, stdout });
    }),
  );
}
