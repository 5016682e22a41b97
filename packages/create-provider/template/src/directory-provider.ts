import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cp, lstat, mkdir, realpath, rm } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import {
  BackendGoneError,
  InvalidRequestError,
  ProviderError,
  ProviderSnapshotNotFoundError,
  type BackendAttachRequest,
  type BackendCheckoutRequest,
  type BackendCreateRequest,
  type BackendProviderV1,
  type BackendSnapshotRequest,
  type ProviderBackend,
  type ProviderSnapshot,
  type SkippedPath,
} from '@runtimectl/provider';
import { DirectoryBackend } from './directory-backend.js';
import { errorCode } from './file-system-errors.js';
import { signalProcessGroup } from './run-command.js';

/** Backend and snapshot ids name directories: nothing that could climb out of their parent. */
const SAFE_NAME = /^[A-Za-z0-9_-]{1,128}$/;

export interface DirectoryProviderSettings {
  /** The id runtimed knows the provider by: the key of its `[providers.<id>]` section. */
  providerId: string;
  /** Each backend's workspace is a directory here, named after the backend's id. */
  workspacesDir: string;
  /** Each snapshot is a copy of a workspace here, named after the snapshot's id. */
  snapshotsDir: string;
  /** How long a command may run when its request gives no timeout. */
  commandTimeoutMs: number;
}

export function createDirectoryProvider(settings: DirectoryProviderSettings): DirectoryProvider {
  return new DirectoryProvider(settings);
}

/**
 * Runtimes whose workspaces are directories on this machine. A backend's resource is
 * `{ workspace: <backend id> }`, so a restarted daemon finds its directory again. Snapshots are
 * directory copies; they outlive the backends, and checkout copies one back into a new workspace.
 */
export class DirectoryProvider implements BackendProviderV1 {
  readonly specificationVersion = 'backend-provider-v1' as const;
  readonly providerId: string;
  readonly snapshotKind = 'filesystem' as const;
  readonly #settings: DirectoryProviderSettings;
  /** Process groups of the commands each workspace ran, so release ends the jobs they left running (this process's only). */
  readonly #commandGroups = new Map<string, Set<number>>();
  #workspacesDir: Promise<string> | undefined;

  constructor(settings: DirectoryProviderSettings) {
    this.#settings = settings;
    this.providerId = settings.providerId;
  }

  async create(request: BackendCreateRequest): Promise<ProviderBackend> {
    const name = safeName(request.backendId, 'backend id');
    const workspaces = await this.#workspaces();
    await mkdir(join(workspaces, name));
    return this.#backend(workspaces, name);
  }

  async attach(request: BackendAttachRequest): Promise<ProviderBackend> {
    const name = workspaceName(request.resource);
    const workspaces = await this.#workspaces();
    const info = name === undefined ? undefined : await lstat(join(workspaces, name)).catch(() => undefined);
    if (name === undefined || !info?.isDirectory()) {
      // The public message names nothing of the host; the cause names the workspace, for the log.
      throw new BackendGoneError(this.providerId, 'attach', 'the workspace directory no longer exists', new Error(`workspace ${String(name)} not found`));
    }
    return this.#backend(workspaces, name);
  }

  async release(request: BackendAttachRequest): Promise<void> {
    const name = workspaceName(request.resource);
    if (name === undefined) return;
    for (const group of this.#commandGroups.get(name) ?? []) signalProcessGroup(group, 'SIGKILL');
    this.#commandGroups.delete(name);
    await removeTree(join(await this.#workspaces(), name), this.providerId, 'release');
  }

  async checkpoint(backend: ProviderBackend, request: BackendSnapshotRequest): Promise<ProviderSnapshot> {
    const name = workspaceName(backend.resource);
    if (name === undefined) throw new ProviderError(this.providerId, 'checkpoint', 'the backend is not one of this provider');
    const source = join(await this.#workspaces(), name);
    const snapshotId = `snap_${randomBytes(16).toString('hex')}`;
    const target = join(this.#settings.snapshotsDir, snapshotId);
    const skipped: SkippedPath[] = [];
    await mkdir(this.#settings.snapshotsDir, { recursive: true });
    try {
      await cp(source, target, {
        recursive: true,
        verbatimSymlinks: true,
        errorOnExist: true,
        force: false,
        // FIFOs, sockets and devices cannot be copied: the snapshot says which it left out.
        filter: async (path) => {
          const kind = specialKind(await lstat(path));
          if (kind !== undefined) skipped.push({ path: relative(source, path), kind });
          return kind === undefined;
        },
      });
    } catch (error) {
      await rm(target, { recursive: true, force: true });
      throw new ProviderError(this.providerId, 'checkpoint', 'copying the workspace failed', error);
    }
    return { snapshotId, names: request.name === undefined ? [] : [request.name], ...(skipped.length > 0 ? { skipped } : {}) };
  }

  async checkout(request: BackendCheckoutRequest): Promise<ProviderBackend> {
    const name = safeName(request.backendId, 'backend id');
    const snapshot = await this.#existingSnapshot(request.snapshotId);
    if (snapshot === undefined) {
      throw new ProviderSnapshotNotFoundError(this.providerId, 'checkout', 'the snapshot no longer exists', new Error(`snapshot ${request.snapshotId} not found`));
    }
    const workspaces = await this.#workspaces();
    const target = join(workspaces, name);
    try {
      await cp(snapshot, target, { recursive: true, verbatimSymlinks: true, errorOnExist: true, force: false });
    } catch (error) {
      await rm(target, { recursive: true, force: true });
      throw new ProviderError(this.providerId, 'checkout', 'copying the snapshot failed', error);
    }
    return this.#backend(workspaces, name);
  }

  async deleteSnapshot(snapshotId: string): Promise<{ deleted: boolean }> {
    const snapshot = await this.#existingSnapshot(snapshotId);
    if (snapshot === undefined) return { deleted: false };
    await removeTree(snapshot, this.providerId, 'delete_snapshot');
    return { deleted: true };
  }

  #backend(workspaces: string, name: string): DirectoryBackend {
    return new DirectoryBackend({
      providerId: this.providerId,
      resource: { workspace: name },
      workspaceRoot: join(workspaces, name),
      commandTimeoutMs: this.#settings.commandTimeoutMs,
      onCommandStarted: (group) => this.#commandStarted(name, group),
    });
  }

  /** Remembers a command's process group, forgetting the groups that have ended. */
  #commandStarted(name: string, group: number): void {
    const groups = this.#commandGroups.get(name) ?? new Set<number>();
    for (const known of groups) if (!signalProcessGroup(known, 0)) groups.delete(known);
    this.#commandGroups.set(name, groups.add(group));
  }

  /** The workspaces directory, created on first use, as its real path: commands see their workspace at `workspaceRoot` (`pwd`). */
  #workspaces(): Promise<string> {
    this.#workspacesDir ??= mkdir(this.#settings.workspacesDir, { recursive: true, mode: 0o700 })
      .then(() => realpath(this.#settings.workspacesDir));
    return this.#workspacesDir;
  }

  async #existingSnapshot(snapshotId: string): Promise<string | undefined> {
    if (!SAFE_NAME.test(snapshotId)) return undefined;
    const path = join(this.#settings.snapshotsDir, snapshotId);
    return (await lstat(path).catch(() => undefined))?.isDirectory() ? path : undefined;
  }
}

function safeName(value: string, what: string): string {
  if (!SAFE_NAME.test(value)) throw new InvalidRequestError(`a ${what} may hold only letters, digits, "_" and "-"`, { [what.replace(' ', '_')]: value });
  return value;
}

/** The workspace a resource names, or undefined when it names none of this provider's. */
function workspaceName(resource: BackendAttachRequest['resource']): string | undefined {
  const name = resource.workspace;
  return typeof name === 'string' && SAFE_NAME.test(name) ? name : undefined;
}

function specialKind(info: Awaited<ReturnType<typeof lstat>>): SkippedPath['kind'] | undefined {
  if (info.isFIFO()) return 'fifo';
  if (info.isSocket()) return 'socket';
  if (info.isBlockDevice() || info.isCharacterDevice()) return 'device';
  return undefined;
}

/**
 * Removes a directory tree. Node removes by absolute path, which fails once a command nested
 * directories deeper than PATH_MAX; `rm -rf` walks relative to each directory and does not.
 */
async function removeTree(path: string, providerId: string, call: string): Promise<void> {
  try {
    await rm(path, { recursive: true, force: true });
  } catch (error) {
    if (errorCode(error) !== 'ENAMETOOLONG') throw new ProviderError(providerId, call, 'removing a directory failed', error);
    await promisify(execFile)('rm', ['-rf', '--', path]).catch((failure: unknown) => {
      throw new ProviderError(providerId, call, 'removing a directory failed', failure);
    });
  }
}
