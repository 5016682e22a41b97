import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const RUNTIMED = fileURLToPath(new URL('../dist/main.js', import.meta.url));

export interface RuntimedProcess {
  url: string;
  banner: string;
  child: ChildProcess;
  stateDir: string;
  stderr: () => string;
  /** SIGTERM and wait; resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Spawns the built `runtimed` on a free port in a fresh state directory and waits for its banner. */
export function startRuntimed(
  args: string[] = [],
  env: NodeJS.ProcessEnv = {},
  stateDir: string = mkdtempSync(join(tmpdir(), 'runtimed-state-')),
): Promise<RuntimedProcess> {
  const child = spawn(process.execPath, [RUNTIMED, '--port', '0', '--state-dir', stateDir, ...args], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      // A daemon that never became ready must not outlive the test that started it.
      child.kill('SIGKILL');
      reject(new Error(`runtimed did not start: ${stderr}`));
    }, 60_000); // a liveness bound: a start on a loaded CI machine took over 20 s
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const banner = stdout.split('\n').find((line) => line.includes(' listening on '));
      if (!banner) return;
      clearTimeout(timer);
      resolve({
        url: /listening on (http:\/\/\S+)/.exec(banner)![1]!,
        banner,
        child,
        stateDir,
        stderr: () => stderr,
        stop: async (signal = 'SIGTERM') => {
          if (child.exitCode === null) child.kill(signal);
          return exited;
        },
      });
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`runtimed exited with ${code}: ${stderr}`));
    });
  });
}

/** Runs `runtimed` expecting it to refuse to start; resolves with its exit code and stderr. */
export function runtimedRefusal(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; stderr: string; stdout: string }> {
  const stateDir = mkdtempSync(join(tmpdir(), 'runtimed-state-'));
  const child = spawn(process.execPath, [RUNTIMED, '--state-dir', stateDir, ...args], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  // A daemon that starts instead of refusing must not outlive the test: killed, it reports code null.
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  return new Promise((resolve) =>
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr, stdout });
    }),
  );
}
