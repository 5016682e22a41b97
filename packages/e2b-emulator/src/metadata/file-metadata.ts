/**
 * File metadata as envd keeps it (envd ≥ 0.6.2): extended attributes `user.e2b.<key>` on the file
 * itself. Real attributes, not a sidecar, because that is where a command inside the sandbox
 * reads and sets them (`os.setxattr(path, 'user.e2b.author', …)` shows in `files.getInfo`), and
 * because they stay with the file's inode through a rename or a move made by any command. A copy
 * of a sandbox (snapshot, fork, a sandbox seeded from either) takes them along through
 * `copyFileMetadata`, as a VM snapshot keeps a disk's attributes.
 *
 * One long-lived python3 helper answers for every sandbox (see `file-metadata-script.ts`): it is
 * trusted code on fixed operations over host paths the caller resolved inside a sandbox, started
 * on first use and told to exit (stdin closed) after a short idle time. Without python3, files
 * have no metadata (reads find none; a write with metadata fails).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import { FILE_METADATA_SCRIPT } from './file-metadata-script.js';

export type FileMetadata = Record<string, string>;

/** The helper could not do what was asked (no python3, or the file refused the attributes). */
export class FileMetadataError extends Error {
  constructor(
    message: string,
    /** `unavailable`: no python3 here, so no file has metadata the emulator could see. */
    readonly reason: 'unavailable' | 'failed' = 'failed',
  ) {
    super(message);
    this.name = 'FileMetadataError';
  }
}

/** How long the helper stays up with nothing to do, by default. */
const IDLE_EXIT_MS = 5_000;

interface Pending {
  resolve: (result: unknown) => void;
  reject: (error: Error) => void;
}

/** The python3 helper's client: one process at a time, started on demand, ended after `idleExitMs` without work. */
export class FileMetadataHelper {
  #child: ChildProcessWithoutNullStreams | undefined;
  readonly #pending = new Map<number, Pending>();
  #nextId = 1;
  #idle: NodeJS.Timeout | undefined;

  constructor(private readonly idleExitMs = IDLE_EXIT_MS) {}

  request(operation: Record<string, unknown>): Promise<unknown> {
    const child = this.#running();
    clearTimeout(this.#idle);
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      holdsEventLoop(child, true);
      child.stdin.write(`${JSON.stringify({ ...operation, id })}\n`);
    });
  }

  #running(): ChildProcessWithoutNullStreams {
    if (this.#child) return this.#child;
    const child = spawn('python3', ['-I', '-c', FILE_METADATA_SCRIPT], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.#child = child;
    child.stdin.on('error', () => undefined);
    child.stderr.resume();
    createInterface({ input: child.stdout }).on('line', (line) => this.#answer(line));
    const gone = (error: Error): void => {
      if (this.#child !== child) return;
      this.#child = undefined;
      clearTimeout(this.#idle);
      for (const pending of this.#pending.values()) pending.reject(error);
      this.#pending.clear();
    };
    child.once('error', (error) => gone(new FileMetadataError(`file metadata needs python3: ${error.message}`, 'unavailable')));
    child.once('exit', (code, signal) => gone(new FileMetadataError(`the file metadata helper exited with ${code ?? signal}`)));
    return child;
  }

  #answer(line: string): void {
    let answer: { id: number; result?: unknown; error?: string };
    try {
      answer = JSON.parse(line) as typeof answer;
    } catch {
      return;
    }
    const pending = this.#pending.get(answer.id);
    this.#pending.delete(answer.id);
    if (answer.error !== undefined) pending?.reject(new FileMetadataError(answer.error));
    else pending?.resolve(answer.result ?? undefined);
    if (this.#pending.size > 0 || !this.#child) return;
    // Idle: the emulator may exit meanwhile; once idle long enough, the helper exits too.
    const child = this.#child;
    holdsEventLoop(child, false);
    this.#idle = setTimeout(() => {
      // Forgotten before it is told to exit: a request arriving while it exits starts a new helper.
      if (this.#child === child) this.#child = undefined;
      child.stdin.end();
    }, this.idleExitMs);
    this.#idle.unref();
  }
}

/** Whether the helper (its process and pipes) keeps the emulator's process alive: only while it has work. */
function holdsEventLoop(child: ChildProcessWithoutNullStreams, hold: boolean): void {
  for (const handle of [child, child.stdin, child.stdout, child.stderr] as Array<{ ref(): void; unref(): void }>) {
    if (hold) handle.ref();
    else handle.unref();
  }
}

const helper = new FileMetadataHelper();

/** The metadata of the file or directory at `hostPath` (`{}` when none, or when it cannot be read). */
export async function readFileMetadata(hostPath: string): Promise<FileMetadata> {
  return ((await helper.request({ op: 'read', path: hostPath }).catch(() => ({}))) ?? {}) as FileMetadata;
}

/** Makes the metadata of the file at `hostPath` exactly `metadata`. Throws FileMetadataError. */
export async function writeFileMetadata(hostPath: string, metadata: FileMetadata): Promise<void> {
  await helper.request({ op: 'write', path: hostPath, metadata });
}

/**
 * Copies every `user.*` attribute under `fromDir` onto the same paths under `toDir`. Without
 * python3 there is nothing to copy that the emulator could ever show, so that is no failure;
 * the helper failing otherwise throws FileMetadataError.
 */
export async function copyFileMetadata(fromDir: string, toDir: string): Promise<void> {
  await helper.request({ op: 'copy', from: fromDir, to: toDir }).catch((error: unknown) => {
    if (!(error instanceof FileMetadataError && error.reason === 'unavailable')) throw error;
  });
}
