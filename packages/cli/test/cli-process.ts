import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The built `runtimectl` bin, run as a real process (its shebang and bundling included). */
export const CLI_BIN = fileURLToPath(new URL('../dist/main.js', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stdoutBytes: Buffer;
  stderr: string;
}

export interface CliRunOptions {
  /** RUNTIMECTL_URL for the process. */
  url?: string;
  env?: NodeJS.ProcessEnv;
  /** Bytes for stdin; stdin is closed (not a TTY) either way. */
  input?: string | Buffer;
  /** The working directory of the process (default: this one's). */
  cwd?: string;
}

/**
 * Runs the bin with a clean environment (no inherited NO_COLOR, FORCE_COLOR or CI, so each test
 * states the environment it means). Its stdout and stderr are pipes: not TTYs.
 */
export function runCli(args: string[], options: CliRunOptions = {}): Promise<CliResult> {
  const child = spawn(process.execPath, [CLI_BIN, ...args], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      ...(options.url ? { RUNTIMECTL_URL: options.url } : {}),
      ...options.env,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
    ...(options.cwd ? { cwd: options.cwd } : {}),
  });
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
  child.stdin.end(options.input ?? '');
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      const stdoutBytes = Buffer.concat(stdout);
      resolve({ code, stdout: stdoutBytes.toString(), stdoutBytes, stderr: Buffer.concat(stderr).toString() });
    });
  });
}

/**
 * Runs the bin with --json, expects exit 0, and parses stdout whole: JSON.parse fails on
 * anything but exactly one JSON document.
 */
export async function runCliJson<T>(args: string[], options: CliRunOptions = {}): Promise<T> {
  const result = await runCli(['--json', ...args], options);
  if (result.code !== 0) throw new Error(`runtimectl --json ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
  return JSON.parse(result.stdout) as T;
}
