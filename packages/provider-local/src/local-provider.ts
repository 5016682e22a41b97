import { mkdir, realpath, rm, stat, writeFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import {
  BackendGoneError,
  ProviderError,
  type BackendAttachRequest,
  type BackendResource,
  type BackendCreateRequest,
  type BackendProviderV1,
  type OwnedResources,
  type ProviderBackend,
  type ProviderSettingInForce,
} from '@runtimectl/provider';
import { checkLimits, type SandboxIdentityRequest, type SandboxLimits, type SandboxNetwork } from '@runtimectl/namespace-sandbox';
import { checkConfiguredEnvironment } from './exec/command-environment';
import { ProcessGroups } from './exec/process-groups';
import { DEFAULT_WORKSPACE_PATH, WorkspaceSandboxes, type IsolationInForce, type JobsAtCheckpoint, type LocalIsolation } from './exec/workspace-sandboxes';
import { checkWorkspacePath } from './workspace-path';
import { DEFAULT_SANDBOX_LIMITS } from './exec/default-limits';
import { errorCode, workspaceGoneError } from './fs-errors';
import { LocalBackend, type LocalBackendSettings } from './local-backend';
import { WorkspaceQuota, type WorkspaceQuotaObserver } from './quota/workspace-quota';
import { removeWorkspace } from './remove-workspace';
import { ownCreated, type WorkspaceOwner } from './sandbox-ownership';
import { resourceOf, workspaceNameIn, workspaceNameOf } from './workspace-names';
import { WorkspaceOwners } from './workspace-owners';
import type { KnownHashes } from './workspace-manifest';
import { OWNER_ONLY_DIRECTORY_MODE, OWNER_ONLY_FILE_MODE } from './owner-only';

export interface LocalProviderSettings {
  /**
   * The provider id it answers to (in errors and records). Default `local`; a provider that
   * composes this one (provider-fs) passes its own.
   */
  providerId?: string;
  /** Directory holding one workspace directory per backend. Created when missing. */
  root: string;
  /** Shell that runs commands as `<shell> -c <command>` when a request names none. Default `/bin/sh`. */
  shell?: string;
  /**
   * Keep a released backend's workspace directory on disk (for inspection) instead of removing
   * it. A kept workspace is still released: `attach` refuses it. Default false.
   */
  keepWorkspaces?: boolean;
  /** Variables every command gets, on top of the minimal PATH, HOME and LANG. */
  env?: Record<string, string>;
  /**
   * Bytes (on disk) one workspace may occupy: write-file over it is refused with
   * `workspace_quota_exceeded`, no file a command writes may grow past it, and a command that
   * grows the workspace over it is stopped. 0 disables. Default 10 GiB (`DEFAULT_WORKSPACE_QUOTA_BYTES`).
   */
  workspaceQuotaBytes?: number;
  /**
   * Entries (files, directories, links: inodes) one workspace may hold — an empty file takes
   * one and no block, so the byte quota alone lets a command exhaust the host's inodes: a
   * write-file creating one more is refused with `workspace_quota_exceeded`, and a command that
   * creates more is stopped. 0 disables. Default 1,000,000 (`DEFAULT_WORKSPACE_QUOTA_INODES`).
   */
  workspaceQuotaInodes?: number;
  /** Told of quota refusals (for metrics; the provider itself has none). */
  quotaObserver?: WorkspaceQuotaObserver;
  /**
   * For a provider composing this one: the host directory whose usage counts against workspace
   * `name`'s quota instead of the workspace itself (undefined: the workspace). provider-fs gives
   * a layered workspace's upper directory: what it wrote over its checkpoint, not the
   * checkpoint's files it was checked out with.
   */
  quotaTree?: (workspaceName: string) => Promise<string | undefined>;
  /**
   * Where commands run. `namespace`: each workspace's commands in its own user, mount and PID
   * namespaces, seeing the workspace, the system's tools read-only, a private /tmp and /proc —
   * not the daemon's process, files or other workspaces; `none`: host processes as the daemon's
   * user; `auto` (default): `namespace` where this machine allows it, else `none` (see `isolation()`).
   */
  isolation?: LocalIsolation;
  /**
   * With namespace isolation, the network commands get (see `SandboxNetwork`): `egress`
   * (default) — outbound connections through slirp4netns or pasta, never the host's loopback;
   * where neither works, `none` instead, and `isolation()` says why (`networkReason`) — never
   * `host`. `none`: loopback only. `host`: the host's network, its loopback services (this
   * daemon's API) included. `true`/`false` (before modes) read as `host`/`none`.
   */
  network?: SandboxNetwork | boolean;
  /**
   * With namespace isolation, what every workspace's commands and background jobs may use
   * together (a cgroup per workspace sandbox; see `SandboxLimits`): a command over the memory or
   * process limit is stopped and its answer says so. Each kind defaults to
   * `DEFAULT_SANDBOX_LIMITS`; 0 turns one off.
   */
  limits?: SandboxLimits;
  /**
   * The host identity of a sandbox's root — the owner of every file in the workspaces. `auto`
   * (default): when the daemon runs as root, an id no user, group or subordinate range has
   * (`DEFAULT_SANDBOX_ID`), else the daemon's own; `caller`: the daemon's own ids; or explicit
   * `{ uid, gid }` (root only). A command may chown only to these ids.
   */
  sandboxIds?: SandboxIdentityRequest;
  /**
   * Where commands see their workspace with namespace isolation: the same path for a runtime's
   * whole life — across checkout, fork, pause, resume and daemon restarts — and for every
   * runtime, so no host path or backend id shows in `pwd`. Default `/home/user/workspace`
   * (E2B's, see `DEFAULT_WORKSPACE_PATH`). An absolute path, not `/` and not in the system
   * directories the sandbox shows (`/usr`, `/bin`, `/sbin`, `/lib*`, `/etc`, `/proc`, `/dev`).
   * Without isolation commands see the host directory.
   */
  workspacePath?: string;
  /**
   * For a provider composing this one (provider-fs): the file hashes it already knows of a
   * workspace (by its directory name), so a backend's `manifest` reads only files changed since.
   */
  knownHashes?: (workspaceName: string) => Promise<KnownHashes | undefined>;
}

/** 10 GiB: far above a code checkout with its build output, far below a disk a runaway `yes` fills. */
export const DEFAULT_WORKSPACE_QUOTA_BYTES = 10 * 1024 ** 3;
/** Entries one workspace may hold unless configured: a large monorepo with its dependencies stays well below. */
export const DEFAULT_WORKSPACE_QUOTA_INODES = 1_000_000;

/** Between SIGTERM and SIGKILL to a timed-out command's process group. */
const KILL_GRACE_MS = 300;
/** How long release waits for killed background processes to disappear before removing files. */
const RELEASE_KILL_WAIT_MS = 2_000;
/** Where kept workspaces are marked released, beside the workspaces (names start with a letter or digit). */
const RELEASED_MARKERS = '.released';

/**
 * The local provider: backends are directories under `root` on this machine and commands are
 * child processes. It has no snapshot methods, so core refuses checkout and pause of its
 * runtimes with `unsupported_backend`, while checkpoint still records the session.
 */
export class LocalProvider implements BackendProviderV1 {
  readonly specificationVersion = 'backend-provider-v1' as const;
  readonly providerId: string;

  readonly #settings: LocalBackendSettings;
  readonly #keepWorkspaces: boolean;
  readonly #configuredRoot: string;
  readonly #groups = new Map<string, ProcessGroups>();
  readonly #sandboxes: WorkspaceSandboxes;
  #root: Promise<string> | undefined;

  constructor(settings: LocalProviderSettings) {
    if (typeof settings.root !== 'string' || settings.root === '') throw new TypeError('createLocalProvider needs a root directory');
    this.providerId = settings.providerId ?? 'local';
    this.#configuredRoot = resolve(settings.root);
    this.#keepWorkspaces = settings.keepWorkspaces ?? false;
    const quotaBytes = settings.workspaceQuotaBytes ?? DEFAULT_WORKSPACE_QUOTA_BYTES;
    if (!Number.isSafeInteger(quotaBytes) || quotaBytes < 0) throw new TypeError('workspaceQuotaBytes must be a whole number of bytes, 0 for none');
    const quotaInodes = settings.workspaceQuotaInodes ?? DEFAULT_WORKSPACE_QUOTA_INODES;
    if (!Number.isSafeInteger(quotaInodes) || quotaInodes < 0) throw new TypeError('workspaceQuotaInodes must be a whole number of entries, 0 for none');
    const isolation = settings.isolation ?? 'auto';
    if (!['auto', 'namespace', 'none'].includes(isolation)) throw new TypeError('createLocalProvider: isolation is auto, namespace or none');
    this.#sandboxes = new WorkspaceSandboxes(this.providerId, () => this.#rootPath(), {
      isolation,
      network: networkMode(settings.network),
      ids: settings.sandboxIds ?? 'auto',
      workspacePath: checkWorkspacePath(settings.workspacePath ?? DEFAULT_WORKSPACE_PATH),
      limits: checkLimits({ ...DEFAULT_SANDBOX_LIMITS, ...settings.limits }),
    });
    this.#settings = {
      providerId: this.providerId,
      shell: settings.shell ?? '/bin/sh',
      env: checkConfiguredEnvironment(settings.env ?? {}),
      killGraceMs: KILL_GRACE_MS,
      ...(quotaBytes > 0 || quotaInodes > 0 ? { quota: new WorkspaceQuota({ bytes: quotaBytes, inodes: quotaInodes }, settings.quotaObserver, quotaTreeOf(settings.quotaTree)) } : {}),
      sandboxes: this.#sandboxes,
      ...(settings.knownHashes ? { knownHashes: settings.knownHashes } : {}),
    };
  }

  /** Workspaces measured since start and the bytes they last measured (read by the usage metric; never walks a tree). */
  workspaceUsage(): { workspaces: number; bytesUsed: number } {
    return this.#settings.quota?.total() ?? { workspaces: 0, bytesUsed: 0 };
  }

  /**
   * The isolation commands get, decided once by a real probe (unless `none`). Rejects when
   * `namespace` was required and this machine cannot do it; a daemon awaits it before serving.
   */
  isolation(): Promise<IsolationInForce> {
    return this.#sandboxes.inForce();
  }

  /** What `GET /providers` shows: the isolation and the network commands get, each with why when not what was asked. */
  async settingsInForce(): Promise<Record<string, ProviderSettingInForce>> {
    const inForce = await this.isolation();
    return {
      isolation: inForce.reason === undefined ? { value: inForce.mode } : { value: inForce.mode, reason: inForce.reason },
      network: inForce.networkReason === undefined ? { value: inForce.network } : { value: inForce.network, reason: inForce.networkReason },
    };
  }

  /** Creates the backend's workspace directory, named after `backendId`. */
  async create(request: BackendCreateRequest): Promise<ProviderBackend> {
    const root = await this.#rootPath();
    const name = workspaceNameOf(request.backendId);
    const owner = await this.#sandboxes.owner();
    try {
      await mkdir(join(root, name));
    } catch (error) {
      const reason = errorCode(error) === 'EEXIST' ? 'the workspace directory already exists' : 'could not create the workspace directory';
      throw new ProviderError(this.providerId, 'create', reason, error);
    }
    try {
      await ownCreated(join(root, name), owner);
    } catch (error) {
      await rm(join(root, name), { recursive: true, force: true });
      throw new ProviderError(this.providerId, 'create', 'could not give the workspace directory to the sandbox identity', error);
    }
    try {
      await rm(join(root, RELEASED_MARKERS, name), { force: true });
      await new WorkspaceOwners(root).record(name, request.labels);
    } catch (error) {
      await rm(join(root, name), { recursive: true, force: true });
      throw new ProviderError(this.providerId, 'create', 'could not record the owner of the workspace directory', error);
    }
    return this.#backend(name, await realpath(join(root, name)));
  }

  /** Re-binds to a workspace directory; `BackendGoneError` when it was removed or released. */
  async attach(request: BackendAttachRequest): Promise<ProviderBackend> {
    const { name, directory } = await this.#liveWorkspace('attach', request.resource);
    return this.#backend(name, directory);
  }

  /**
   * The real path of a live backend's workspace directory, for a provider composing this one
   * (in-process only: a host path never goes on the wire). `BackendGoneError` as `attach`.
   */
  async workspaceDirectory(resource: BackendResource): Promise<string> {
    return (await this.#liveWorkspace('workspaceDirectory', resource)).directory;
  }

  async #liveWorkspace(call: string, resource: BackendResource): Promise<{ name: string; directory: string }> {
    const name = workspaceNameIn(resource);
    if (!name) throw new BackendGoneError(this.providerId, call, 'the resource names no local workspace');
    const root = await this.#rootPath();
    const directory = join(root, name);
    const gone = () => workspaceGoneError(this.providerId, call, directory);
    if (await exists(join(root, RELEASED_MARKERS, name))) throw gone();
    try {
      if (!(await stat(directory)).isDirectory()) throw gone();
    } catch (error) {
      if (BackendGoneError.isInstance(error)) throw error;
      if (errorCode(error) === 'ENOENT') throw gone();
      throw new ProviderError(this.providerId, call, 'could not open the workspace directory', error);
    }
    return { name, directory: await realpath(directory) };
  }

  /**
   * Who must own what is made in a workspace outside its commands (a checkout's files) so they
   * can change it: the sandbox identity, or undefined (files stay the daemon's).
   */
  workspaceOwner(): Promise<WorkspaceOwner | undefined> {
    return this.#sandboxes.owner();
  }

  /**
   * Runs `work` with the processes the workspace's commands left running frozen, for a provider
   * composing this one that copies what they write (provider-fs seals a layered workspace's upper
   * directory by copying it while jobs run): see WorkspaceSandboxes.whileJobsFrozen.
   */
  whileJobsFrozen<T>(resource: BackendResource, operation: string, work: () => Promise<T>): Promise<T> {
    const name = workspaceNameIn(resource);
    return name ? this.#sandboxes.whileJobsFrozen(name, operation, work) : work();
  }

  /** Whether `whileJobsFrozen` freezes anything here, and why not (see WorkspaceSandboxes.jobsAtCheckpoint). */
  jobsAtCheckpoint(): Promise<JobsAtCheckpoint> {
    return this.#sandboxes.jobsAtCheckpoint();
  }

  /**
   * Stops the workspace's sandbox when nothing its commands started still runs in it, and
   * answers whether it did (true also when there was none). False with isolation `none`, where
   * host processes cannot be counted exactly. For a provider composing this one that must know
   * no process holds the workspace (provider-fs seals a layered workspace's upper directory by
   * renaming it); the next command starts a new sandbox.
   */
  async stopSandboxIfIdle(resource: BackendResource): Promise<boolean> {
    const name = workspaceNameIn(resource);
    if (!name || (await this.#sandboxes.runningProcesses(name)) !== 0) return false;
    await this.#sandboxes.kill(name);
    return true;
  }

  /**
   * Kills whatever the workspace's commands left running (their process groups and the
   * workspace's sandbox, with everything in it — `setsid` children too), then removes
   * the workspace directory — or, with `keepWorkspaces`, marks it released and leaves it.
   * Idempotent; a resource that names no workspace of ours is ignored.
   */
  async release(request: BackendAttachRequest): Promise<void> {
    const name = workspaceNameIn(request.resource);
    if (!name) return;
    await this.#groups.get(name)?.killAll(RELEASE_KILL_WAIT_MS);
    this.#groups.delete(name);
    await this.#sandboxes.kill(name);
    const root = await this.#rootPath();
    this.#settings.quota?.forget(join(root, name));
    await new WorkspaceOwners(root).forget(name);
    if (this.#keepWorkspaces) {
      if (!(await exists(join(root, name)))) return;
      await mkdir(join(root, RELEASED_MARKERS), { recursive: true, mode: OWNER_ONLY_DIRECTORY_MODE });
      await writeFile(join(root, RELEASED_MARKERS, name), `${new Date().toISOString()}\n`, { mode: OWNER_ONLY_FILE_MODE });
      return;
    }
    await removeWorkspace(join(root, name), this.providerId);
  }

  /** Live workspaces created with `installationId`'s labels (for crash reconciliation). No snapshots. */
  async listOwnedResources(installationId: string): Promise<OwnedResources> {
    return new WorkspaceOwners(await this.#rootPath()).list(installationId);
  }

  /** The backend of workspace `name` (host directory `directory`), seen by commands where the isolation in force shows it. */
  async #backend(name: string, directory: string): Promise<LocalBackend> {
    let groups = this.#groups.get(name);
    if (!groups) {
      groups = new ProcessGroups();
      this.#groups.set(name, groups);
    }
    const visible = (await this.#sandboxes.inForce()).workspacePath ?? directory;
    return new LocalBackend(resourceOf(name), directory, visible, groups, this.#settings, name);
  }

  /** The real path of `root`, created (owner-only, as are the directories leading to it) on first use. */
  #rootPath(): Promise<string> {
    this.#root ??= (async () => {
      await mkdir(this.#configuredRoot, { recursive: true, mode: OWNER_ONLY_DIRECTORY_MODE });
      return realpath(this.#configuredRoot);
    })();
    this.#root.catch(() => {
      this.#root = undefined;
    });
    return this.#root;
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

/** The network mode a `network` setting asks for (booleans from before modes: true is host, false none). */
function networkMode(network: SandboxNetwork | boolean | undefined): SandboxNetwork {
  if (network === undefined) return 'egress';
  if (typeof network === 'boolean') return network ? 'host' : 'none';
  if (!['none', 'egress', 'host'].includes(network)) throw new TypeError('createLocalProvider: network is none, egress or host');
  return network;
}

/** Creates the local provider. Throws `TypeError` for a missing root, `InvalidRequestError` for a bad `env`. */
export function createLocalProvider(settings: LocalProviderSettings): LocalProvider {
  return new LocalProvider(settings);
}

/** The tree measured for a workspace's quota: `quotaTree`'s answer for its name, else the workspace. */
function quotaTreeOf(quotaTree: LocalProviderSettings['quotaTree']): ((root: string) => Promise<string>) | undefined {
  return quotaTree && (async (root) => (await quotaTree(basename(root))) ?? root);
}
