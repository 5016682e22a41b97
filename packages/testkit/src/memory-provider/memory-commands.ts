import { InvalidRequestError, PathNotFoundError, type ExecRequest, type ExecResult } from '@runtimectl/provider';
import { seqOutput } from '../conformance/paced-output';
import type { MemoryFileSystem } from './memory-file-system';

/** What a test-supplied exec handler sees. */
export interface MemoryExecContext {
  fs: MemoryFileSystem;
  cwd: string;
  env: Record<string, string>;
  signal: AbortSignal;
}

/** Answers a command, or returns undefined to fall back to the built-in commands. */
export type MemoryExecHandler = (
  request: ExecRequest,
  context: MemoryExecContext,
) => Promise<Partial<ExecOutput> | undefined> | Partial<ExecOutput> | undefined;

export interface ExecOutput {
  stdout: string | Uint8Array;
  stderr: string | Uint8Array;
  exitCode: number;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

/**
 * The memory provider's command set, enough to exercise exec semantics without a host shell:
 * `true`, `false`, `exit N`, `echo WORDS`, `cat PATH`, `pwd`, `printenv NAME`, `sleep SECONDS`,
 * `seq [FIRST] LAST`, `write PATH TEXT`, `repeat COUNT TEXT`; a trailing `>&2` sends stdout to
 * stderr. Anything else exits 127.
 */
export async function runBuiltin(command: string, context: MemoryExecContext): Promise<ExecOutput> {
  const words = command.trim().split(/\s+/);
  if (words.length > 1 && words.at(-1) === '>&2') {
    const output = await runWords(words.slice(0, -1), context);
    return { stdout: '', stderr: Buffer.concat([Buffer.from(output.stderr), Buffer.from(output.stdout)]), exitCode: output.exitCode };
  }
  return runWords(words, context);
}

async function runWords([name = '', ...args]: string[], context: MemoryExecContext): Promise<ExecOutput> {
  const ok = (stdout: string): ExecOutput => ({ stdout, stderr: '', exitCode: 0 });
  switch (name) {
    case 'true':
      return ok('');
    case 'false':
      return { stdout: '', stderr: '', exitCode: 1 };
    case 'exit':
      return { stdout: '', stderr: '', exitCode: Number(args[0] ?? 0) };
    case 'echo':
      return ok(`${args.join(' ')}\n`);
    case 'pwd':
      return ok(`${context.cwd}\n`);
    case 'printenv':
      return args[0] !== undefined && context.env[args[0]] !== undefined
        ? ok(`${context.env[args[0]]}\n`)
        : { stdout: '', stderr: '', exitCode: 1 };
    case 'cat': {
      const path = args[0] ?? '';
      if (!context.fs.stat(path).exists) return { stdout: '', stderr: `cat: ${path}: No such file or directory\n`, exitCode: 1 };
      return { stdout: context.fs.read(path), stderr: '', exitCode: 0 };
    }
    case 'write':
      context.fs.write(args[0] ?? 'out.txt', Buffer.from(args.slice(1).join(' ')));
      return ok('');
    case 'seq':
      return ok(seqOutput(Number(args.length > 1 ? args[0] : 1), Number(args.at(-1) ?? 0)));
    case 'repeat':
      return ok(`${args.slice(1).join(' ')}\n`.repeat(Number(args[0] ?? 1)));
    case 'sleep':
      await sleep(Number(args[0] ?? 0) * 1000, context.signal);
      return ok('');
    default:
      return { stdout: '', stderr: `memory: command not found: ${name}\n`, exitCode: 127 };
  }
}

/** Keeps at most `limit` bytes. */
export function capOutput(output: string | Uint8Array, limit: number): { bytes: Uint8Array; truncated: boolean } {
  const bytes = typeof output === 'string' ? Buffer.from(output) : output;
  return bytes.byteLength > limit ? { bytes: bytes.slice(0, limit), truncated: true } : { bytes, truncated: false };
}

/** The directory a command runs in, by the path rule every provider follows: missing → `PathNotFoundError`. */
function workingDirectory(fs: MemoryFileSystem, cwdPath: string): string {
  const cwd = fs.resolve(cwdPath);
  const kind = fs.stat(cwd).kind;
  if (kind === null) throw new PathNotFoundError(cwdPath);
  if (kind !== 'directory') throw new InvalidRequestError(`cwd ${cwdPath} is not a directory`, { path: cwdPath });
  return cwd;
}

export async function execInMemory(
  request: ExecRequest,
  fs: MemoryFileSystem,
  handler: MemoryExecHandler | undefined,
): Promise<ExecResult> {
  const cwd = workingDirectory(fs, request.cwd ?? '.');
  const controller = new AbortController();
  let timedOut = false;
  const timer =
    request.timeoutMs === undefined
      ? undefined
      : setTimeout(() => {
          timedOut = true;
          controller.abort();
        }, request.timeoutMs);
  try {
    const context: MemoryExecContext = { fs, cwd, env: request.env ?? {}, signal: controller.signal };
    const handled = await handler?.(request, context);
    const output: ExecOutput = handled
      ? { stdout: handled.stdout ?? '', stderr: handled.stderr ?? '', exitCode: handled.exitCode ?? 0 }
      : await runBuiltin(request.command, context);
    const stdout = capOutput(output.stdout, request.maxOutputBytes);
    const stderr = capOutput(output.stderr, request.maxOutputBytes);
    return {
      stdout: stdout.bytes,
      stderr: stderr.bytes,
      exitCode: timedOut ? null : output.exitCode,
      timedOut,
      truncated: stdout.truncated || stderr.truncated,
    };
  } finally {
    clearTimeout(timer);
  }
}
