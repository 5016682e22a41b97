import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The built daemon of this repository (a devDependency, so turbo builds it before these tests). */
export const RUNTIMED = fileURLToPath(new URL('../../../apps/daemon/dist/main.js', import.meta.url));

export interface RuntimedProcess {
  url: string;
  child: ChildProcess;
  /** SIGTERM, wait for the exit, remove the state directory. */
  stop(): Promise<void>;
}

/**
 * Spawns the built `runtimed` on a free port in a fresh state directory and waits for its start
 * banner (the approach of apps/daemon/test/runtimed-process.ts). `--provider memory` gives
 * snapshots; the local provider is enabled too, without them.
 */
export function startRuntimed(args: string[] = ['--provider', 'memory'], env: NodeJS.ProcessEnv = {}): Promise<RuntimedProcess> {
  const stateDir = mkdtempSync(join(tmpdir(), 'runtimectl-cli-state-'));
  const child = spawn(process.execPath, [RUNTIMED, '--port', '0', '--state-dir', stateDir, '--log-level', 'warn', ...args], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`runtimed did not start: ${stderr}`)), 20_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const banner = stdout.split('\n').find((line) => line.includes(' listening on '));
      if (!banner) return;
      clearTimeout(timer);
      resolve({
        url: /listening on (http:\/\/\S+)/.exec(banner)![1]!,
        child,
        stop: async () => {
          if (child.exitCode === null) child.kill('SIGTERM');
          await exited;
          rmSync(stateDir, { recursive: true, force: true });
        },
      });
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`runtimed exited early: ${stderr}`));
    });
  });
}
