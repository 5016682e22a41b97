import { randomBytes } from 'node:crypto';
import { posix } from 'node:path';
import {
  globFiles,
  grepFiles,
  InvalidRequestError,
  PathNotFoundError,
  ProviderError,
  ProviderTimeoutError,
  type ExecRequest,
  type ExecResult,
  type ExportedFile,
  type GlobRequest,
  type GrepRequest,
  type ManifestEntry,
  type PathStat,
  type ProviderBackend,
  type ReadBytesOptions,
  type SearchResult,
  type TempPathRequest,
  WorkspacePaths,
} from '@runtimectl/provider';
import { FileNotFoundError, InvalidArgumentError, type Sandbox } from 'e2b';
import type { E2BErrorMapper } from './e2b-errors';
import { mayMeanSandboxGone, PROVIDER_ID, sandboxGoneError } from './e2b-errors';
import type { ResolvedE2BSettings } from './e2b-settings';
import { runCommand } from './exec/run-command';
import { BACKGROUND_PROCESSES_SCRIPT, parseBackgroundProcesses } from './exec/background-processes';
import { runScript } from './exec/run-script';
import { readStreamAtMost } from './bounded-read';
import { streamFile } from './file-stream';
import { resourceOf, type SandboxResource } from './sandbox-resource';
import type { SandboxKeepAlive } from './sandbox-keep-alive';
import { sandboxSearchTree } from './sandbox-search';
import { manifestScript, NO_WORKSPACE_EXIT, parseManifestOutput } from './sandbox-manifest';
import { withDeadline } from './request-deadline';

/** What every backend of one provider shares. */
export interface BackendContext {
  settings: ResolvedE2BSettings;
  errors: E2BErrorMapper;
  keepAlive: SandboxKeepAlive;
  /** Asks the control plane about the sandbox: `gone` when E2B says it does not exist. */
  sandboxState(sandboxId: string): Promise<SandboxState | undefined>;
}

/** A sandbox as the control plane sees it. */
export type SandboxState = 'running' | 'paused' | 'gone';

/** Why a call failed on a sandbox paused outside runtimectl (E2B breaks its connections). */
const PAUSED_MESSAGE =
  'the E2B sandbox was paused while the call was in flight (outside runtimectl): its files and commands are unreachable until it is resumed';

const MISSING: PathStat = { exists: false, kind: null, sizeBytes: null, modifiedAtMs: null };
const TEMP_DIRECTORY = '.tmp';
const TEMP_AFFIX = /^[A-Za-z0-9._-]{0,64}$/;
/** Search commands (`find`, `grep -r`) over a big tree may take longer than one request. */
const SEARCH_COMMAND_TIMEOUT_MS = 120_000;
/** A manifest hashes the whole workspace in one command: as long as a search may take. */
const MANIFEST_COMMAND_TIMEOUT_MS = 120_000;
/** Counting background processes reads one small file per process in the sandbox. */
const COUNT_COMMAND_TIMEOUT_MS = 30_000;

/**
 * One E2B sandbox as a runtimectl backend. Files go through envd's file API (`sandbox.files`),
 * commands and search through `sandbox.commands.run`. Every call first checks that the sandbox
 * has not been found gone (by the keep-alive or an earlier call) and, when a call fails in a way
 * that could mean the sandbox vanished, asks the control plane: a missing sandbox is reported as
 * `BackendGoneError` (core then marks the runtime failed), never as a mystery error.
 */
export class E2BBackend implements ProviderBackend {
  readonly resource;
  readonly workspaceRoot: string;
  readonly sandboxId: string;
  readonly #paths: WorkspacePaths;

  constructor(
    private readonly sandbox: Sandbox,
    sandboxResource: SandboxResource,
    private readonly context: BackendContext,
  ) {
    this.sandboxId = sandboxResource.sandboxId;
    this.resource = resourceOf(sandboxResource);
    this.workspaceRoot = context.settings.workspaceRoot;
    this.#paths = new WorkspacePaths(this.workspaceRoot);
  }

  /** One envd request under the provider's deadline (see `withDeadline`), as the configured sandbox user. */
  #request<T>(work: (options: { signal: AbortSignal; requestTimeoutMs: number; user: string }) => Promise<T>): Promise<T> {
    const { requestTimeoutMs, user } = this.context.settings;
    return withDeadline(requestTimeoutMs, (signal) => work({ signal, requestTimeoutMs, user }));
  }

  /** Deadlines and user of one script run by `commands.run`. */
  #scriptOptions(streamTimeoutMs: number) {
    return { requestTimeoutMs: this.context.settings.requestTimeoutMs, streamTimeoutMs, user: this.context.settings.user };
  }

  async stat(path: string): Promise<PathStat> {
    const absolute = this.#paths.resolve(path);
    return this.#call('stat', path, async () => {
      let info;
      try {
        info = await this.#request((options) => this.sandbox.files.getInfo(absolute, options));
      } catch (error) {
        // Missing, or a parent is a file: either way nothing is there.
        if (error instanceof FileNotFoundError || error instanceof InvalidArgumentError) return MISSING;
        throw error;
      }
      const kind = info.type === 'file' ? 'file' : info.type === 'dir' ? 'directory' : info.type === 'symlink' ? 'symlink' : 'other';
      return {
        exists: true,
        kind,
        sizeBytes: kind === 'file' ? info.size : 0,
        modifiedAtMs: info.modifiedTime ? Math.trunc(info.modifiedTime.getTime()) : null,
      };
    });
  }

  /**
   * With `maxBytes`, the file is streamed and at most `maxBytes + 1` bytes are held. A FIFO or
   * device in the sandbox is read by envd, not by this process: such a read ends, at the latest,
   * at the request deadline.
   */
  async readBytes(path: string, options: ReadBytesOptions = {}): Promise<Uint8Array> {
    const absolute = this.#paths.resolve(path);
    return this.#call('read_bytes', path, () => this.#read(absolute, path, options.maxBytes));
  }

  /** One file's bytes through envd; with `maxBytes`, streamed and held to `maxBytes + 1` bytes. */
  #read(absolute: string, path: string, maxBytes: number | undefined): Promise<Uint8Array> {
    return this.#request(async (requestOptions) =>
      maxBytes === undefined
        ? this.sandbox.files.read(absolute, { format: 'bytes', ...requestOptions })
        : readStreamAtMost(await this.sandbox.files.read(absolute, { format: 'stream', ...requestOptions }), maxBytes, path),
    );
  }

  async writeBytes(path: string, content: Uint8Array): Promise<{ path: string; created: boolean }> {
    const absolute = this.#paths.resolve(path);
    const before = await this.stat(path);
    if (before.kind === 'directory') throw new InvalidRequestError(`${path} is a directory`, { path });
    await this.#call('write_bytes', path, () => this.#request((options) => this.sandbox.files.write(absolute, new Blob([content]), options)));
    return { path, created: !before.exists };
  }

  async createDirAll(path: string): Promise<void> {
    const absolute = this.#paths.resolve(path);
    await this.#call('create_dir_all', path, () => this.#request((options) => this.sandbox.files.makeDir(absolute, options)));
  }

  async tempPath(request: TempPathRequest): Promise<string> {
    const prefix = request.prefix ?? 'tmp-';
    const suffix = request.suffix ?? '';
    if (!TEMP_AFFIX.test(prefix) || !TEMP_AFFIX.test(suffix)) {
      throw new InvalidRequestError('temp prefix and suffix may hold only letters, digits, ".", "_" and "-" (at most 64)', { prefix, suffix });
    }
    await this.createDirAll(TEMP_DIRECTORY);
    // 64 random bits: a clash with an existing name is not a practical concern.
    const path = `${TEMP_DIRECTORY}/${prefix}${randomBytes(8).toString('hex')}${suffix}`;
    const absolute = this.#paths.resolve(path);
    await this.#call('temp_path', path, () =>
      this.#request(async (options) => {
        if (request.kind === 'directory') await this.sandbox.files.makeDir(absolute, options);
        else await this.sandbox.files.write(absolute, new Blob([]), options);
      }),
    );
    return path;
  }

  async exec(request: ExecRequest): Promise<ExecResult> {
    const cwdPath = request.cwd ?? '.';
    const cwd = this.#paths.resolve(cwdPath);
    try {
      return await this.#call('exec', undefined, () =>
        runCommand(this.sandbox, { ...request, cwd, cwdPath, shell: request.shell ?? this.context.settings.shell }, {
          requestTimeoutMs: this.context.settings.requestTimeoutMs,
          user: this.context.settings.user,
        }),
      );
    } catch (error) {
      // The command could not enter cwd: the path rule says missing → path_not_found, a file → invalid_request.
      if (PathNotFoundError.isInstance(error) && (await this.stat(cwdPath)).exists) {
        throw new InvalidRequestError(`cwd ${cwdPath} is not a directory`, { path: cwdPath });
      }
      throw error;
    }
  }

  async glob(request: GlobRequest): Promise<SearchResult> {
    const baseDir = this.#paths.relative(request.baseDir ?? '');
    return this.#call('glob', undefined, () => globFiles(this.#searchTree(), baseDir, request.pattern, request.limit));
  }

  async grep(request: GrepRequest): Promise<SearchResult> {
    const baseDir = this.#paths.relative(request.baseDir ?? '');
    return this.#call('grep', undefined, () =>
      grepFiles(this.#searchTree(request.query), baseDir, request),
    );
  }

  async export(path: string): Promise<ExportedFile> {
    const stat = await this.stat(path);
    if (!stat.exists) throw new PathNotFoundError(path);
    if (stat.kind !== 'file') throw new InvalidRequestError(`${path} is not a regular file`, { path });
    const absolute = this.#paths.resolve(path);
    const content = await this.#call('export', path, () =>
      streamFile(this.sandbox, absolute, stat.sizeBytes ?? 0, this.context.settings.requestTimeoutMs, this.context.settings.user, (error) => this.context.errors.map(error, { call: 'export', path })),
    );
    return { fileName: posix.basename(absolute), sizeBytes: stat.sizeBytes ?? 0, content };
  }

  /** The workspace's manifest, computed inside the sandbox by one command (see sandbox-manifest.ts). */
  async manifest(): Promise<ManifestEntry[]> {
    const ran = await this.#call('manifest', undefined, () =>
      runScript(this.sandbox, manifestScript(this.workspaceRoot), this.#scriptOptions(MANIFEST_COMMAND_TIMEOUT_MS)),
    );
    if (ran.kind === 'timed_out') throw new ProviderTimeoutError(PROVIDER_ID, 'manifest', MANIFEST_COMMAND_TIMEOUT_MS);
    if (ran.exitCode === NO_WORKSPACE_EXIT) throw new ProviderError(PROVIDER_ID, 'manifest', 'the workspace directory does not exist in the sandbox');
    try {
      return parseManifestOutput(ran.stdout);
    } catch (error) {
      throw new ProviderError(PROVIDER_ID, 'manifest', (error as Error).message, error);
    }
  }

  /**
   * Processes the runtime's commands left running in the sandbox — background jobs, `nohup` and
   * `setsid` ones, their children, commands still running — counted by one command: those
   * carrying the marker the exec wrapper gives every command (see BACKGROUND_PROCESSES_SCRIPT).
   * null when the sandbox cannot count (a template without grep). An E2B snapshot keeps them
   * running, and a checkout or resume restores them.
   */
  async backgroundProcesses(): Promise<number | null> {
    const ran = await this.#call('background_processes', undefined, () =>
      runScript(this.sandbox, BACKGROUND_PROCESSES_SCRIPT, this.#scriptOptions(COUNT_COMMAND_TIMEOUT_MS)),
    );
    if (ran.kind === 'timed_out') throw new ProviderTimeoutError(PROVIDER_ID, 'background_processes', COUNT_COMMAND_TIMEOUT_MS);
    return ran.exitCode === 0 ? parseBackgroundProcesses(ran.stdout) : null;
  }

  #searchTree(grepQuery?: string) {
    const run = async (script: string) => {
      const ran = await runScript(this.sandbox, script, this.#scriptOptions(SEARCH_COMMAND_TIMEOUT_MS));
      if (ran.kind === 'timed_out') throw new DOMException(`the search did not finish within ${SEARCH_COMMAND_TIMEOUT_MS} ms`, 'TimeoutError');
      return ran.stdout;
    };
    const read = async (path: string, maxBytes?: number) => {
      try {
        return await this.#read(posix.join(this.workspaceRoot, path), path, maxBytes);
      } catch (error) {
        // Deleted or replaced by a directory since it was listed: passed over, as the local provider does.
        if (error instanceof FileNotFoundError || error instanceof InvalidArgumentError) return undefined;
        throw error;
      }
    };
    return sandboxSearchTree(this.workspaceRoot, run, read, grepQuery);
  }

  /** Runs one envd call: refuses a sandbox known gone, and tells a vanished sandbox from other failures. */
  async #call<T>(call: string, path: string | undefined, fn: () => Promise<T>): Promise<T> {
    const gone = this.context.keepAlive.goneReason(this.sandboxId);
    if (gone !== undefined) throw sandboxGoneError(call, this.sandboxId, gone);
    try {
      return await fn();
    } catch (error) {
      if (mayMeanSandboxGone(error)) {
        const state = await this.context.sandboxState(this.sandboxId).catch(() => undefined);
        if (state === 'gone') {
          this.context.keepAlive.markGone(this.sandboxId);
          throw sandboxGoneError(call, this.sandboxId, undefined, this.context.errors.cause(error));
        }
        if (state === 'paused') throw new ProviderError(PROVIDER_ID, call, PAUSED_MESSAGE, this.context.errors.cause(error));
      }
      throw this.context.errors.map(error, { call, sandboxId: this.sandboxId, ...(path !== undefined ? { path } : {}) });
    }
  }
}
