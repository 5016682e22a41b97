import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { canFreeze, HolderFile, JobsNotFrozenError, NamespaceSandbox, type Launch, type ProbeSpec, type SandboxIdentity, type SandboxRecord } from '@runtimectl/namespace-sandbox';
import { ProviderError } from '@runtimectl/provider';
import { ownWorkspace } from '../sandbox-ownership';
import { decideIsolation, type IsolationDecision, type IsolationInForce, type IsolationRequest } from './isolation-decision';
import type { LimitedSandbox } from './limits-watchdog';
import { assertRunnableShell } from './runnable-shell';
import { OWNER_ONLY_DIRECTORY_MODE } from '../owner-only';

export type { IsolationInForce, LocalIsolation } from './isolation-decision';

/** What a checkpoint does to the processes commands left running (see `WorkspaceSandboxes.jobsAtCheckpoint`). */
export type JobsAtCheckpoint = { value: 'frozen' } | { value: 'not frozen'; reason: string };

/** A workspace's sandbox, entered for one command (see `WorkspaceSandboxes.enter`). */
export interface EnteredSandbox {
  /** How to run `argv` at `cwd` (a path as commands see it) inside; refuses a shell that cannot run. */
  /** How to run `argv` at `cwd` with `env` (which only the sandbox side sees: see Launch). */
  launch(cwd: string, argv: string[], env: Record<string, string>): Promise<Launch>;
  /** The sandbox and its limit counters before the command, when it has limits. */
  limited?: LimitedSandbox;
}

/**
 * Where commands see their workspace by default: E2B's workspace path (provider-e2b's
 * `workspaceRoot`), so a runtime's commands find their files at the same place on local, fs
 * and e2b, and paths an agent wrote down (in scripts, in its session state) carry over.
 */
export const DEFAULT_WORKSPACE_PATH = '/home/user/workspace';

/** Where the provider keeps sandbox bookkeeping under its root (workspace names never start with a dot). */
const NAMESPACE_DIRECTORY = '.ns';
/** How long release waits for a killed sandbox (and so everything in it) to be gone. */
const KILL_WITHIN_MS = 5_000;

/**
 * One namespace sandbox per workspace, started on its first command and entered by every later
 * one (background jobs stay between commands), killed on release together with everything in
 * it. Each is recorded in `<root>/.ns/<workspace>.json`, so after a daemon restart commands
 * enter it again and release kills it; a record whose process is gone or is another process
 * (pid reused) is ignored.
 */
export class WorkspaceSandboxes {
  readonly #running = new Map<string, Promise<NamespaceSandbox>>();
  #decision: Promise<IsolationDecision> | undefined;

  constructor(
    /** The provider its errors name. */
    private readonly providerId: string,
    private readonly root: () => Promise<string>,
    private readonly request: IsolationRequest,
  ) {}

  /**
   * Probes once (unless `none`, see `decideIsolation`); rejects when `namespace` was required and
   * cannot work here, or explicit sandbox ids cannot be used.
   */
  async inForce(): Promise<IsolationInForce> {
    return (await this.#decided()).inForce;
  }

  #decided(): Promise<IsolationDecision> {
    this.#decision ??= (async () => {
      const scratch = join(await this.root(), NAMESPACE_DIRECTORY, 'probe');
      await mkdir(scratch, { recursive: true, mode: OWNER_ONLY_DIRECTORY_MODE });
      return decideIsolation(this.request, scratch);
    })();
    return this.#decision;
  }

  /**
   * Who must own what the daemon creates in a workspace (directories, files, a checkout's tree)
   * so its commands can change it: the sandbox identity, or undefined when files stay the
   * daemon's (no identity, or no isolation).
   */
  async owner(): Promise<SandboxIdentity | undefined> {
    return (await this.inForce()).identity;
  }

  /**
   * Workspace `name`'s sandbox (host directory `directory`), started if it is not running, ready
   * for one command: how to launch it and, with limits, the sandbox and its counters now (to
   * watch the command against them). Undefined without namespaces: commands are host processes.
   * One lookup serves both, as every exec pays for it.
   */
  async enter(name: string, directory: string): Promise<EnteredSandbox | undefined> {
    const { inForce, spec } = await this.#decided();
    if (inForce.mode === 'none') return undefined;
    const sandbox = await this.#sandbox(name, directory);
    const limited = spec?.limits && sandbox.limits ? { sandbox, before: await sandbox.limitCounters() } : undefined;
    return {
      ...(limited ? { limited } : {}),
      async launch(cwd, argv, env) {
        await assertRunnableShell(argv[0]!);
        return sandbox.launch(cwd, argv, env);
      },
    };
  }

  /**
   * How many processes workspace `name`'s commands left running, counted in its sandbox (this
   * daemon's, or one recorded by a daemon before it; see NamespaceSandbox.runningProcesses)
   * without starting one: 0 when it has none running. null with isolation `none`: host processes
   * cannot be counted exactly (a job can leave its process group with `setsid`, and a restarted
   * daemon no longer knows the groups).
   */
  async runningProcesses(name: string): Promise<number | null> {
    if ((await this.inForce()).mode === 'none') return null;
    const sandbox = await this.#existing(name);
    return sandbox ? sandbox.runningProcesses() : 0;
  }

  /**
   * Whether `whileJobsFrozen` freezes what commands left running: `frozen`, or `not frozen` and
   * why (isolation `none`: host processes, no cgroup to freeze; or sandboxes without a cgroup freezer).
   */
  async jobsAtCheckpoint(): Promise<JobsAtCheckpoint> {
    const { inForce, spec } = await this.#decided();
    if (inForce.mode === 'none') return { value: 'not frozen', reason: 'isolation none: commands are host processes, in no cgroup of their own' };
    if (spec?.cgroups && canFreeze(spec.cgroups)) return { value: 'frozen' };
    return { value: 'not frozen', reason: inForce.limitsReason ?? 'no cgroup freezer on this machine' };
  }

  /**
   * Runs `work` with everything workspace `name`'s commands left running frozen (see
   * NamespaceSandbox.whileJobsFrozen), so that what it reads of their files stays as it is; as it
   * is when nothing can run (no sandbox) or nothing can freeze (see `jobsAtCheckpoint`; a sandbox
   * started before freezing existed). ProviderError naming `operation` when the jobs did not all
   * stop in time: `work` did not run.
   */
  async whileJobsFrozen<T>(name: string, operation: string, work: () => Promise<T>): Promise<T> {
    if ((await this.inForce()).mode === 'none') return work();
    const sandbox = await this.#existing(name);
    if (!sandbox?.freezable) return work();
    try {
      return await sandbox.whileJobsFrozen(work);
    } catch (error) {
      if (!(error instanceof JobsNotFrozenError)) throw error;
      throw new ProviderError(this.providerId, operation, `the runtime's running processes could not be paused (${error.message}); nothing was taken`, error);
    }
  }

  /** Workspace `name`'s sandbox when one runs (this daemon's, or one recorded by a daemon before it), never starting one. */
  async #existing(name: string): Promise<NamespaceSandbox | undefined> {
    const known = await this.#running.get(name)?.catch(() => undefined);
    if (known) return known;
    const recorded = await (await this.#file(name)).read();
    return (recorded && (await NamespaceSandbox.adopt(recorded))) || undefined;
  }

  /** Kills workspace `name`'s sandbox, this daemon's or a recorded one of a daemon before it. */
  async kill(name: string): Promise<void> {
    const running = this.#running.get(name);
    this.#running.delete(name);
    const file = await this.#file(name);
    const record = (await running?.catch(() => undefined))?.record ?? (await file.read());
    if (record && !(await NamespaceSandbox.kill(record, KILL_WITHIN_MS))) {
      throw new ProviderError(this.providerId, 'release', 'the workspace sandbox did not stop');
    }
    await file.remove();
  }

  /** The workspace's running sandbox: this daemon's, a recorded one still running, or a new one. */
  #sandbox(name: string, directory: string): Promise<NamespaceSandbox> {
    const known = this.#running.get(name);
    const current = (known ?? Promise.resolve(undefined)).catch(() => undefined).then(async (sandbox) => {
      if (sandbox && (await sandbox.isRunning())) return sandbox;
      const file = await this.#file(name);
      const recorded = await file.read();
      const spec = (await this.#decided()).spec!;
      const identity = spec.identity;
      const adopted = recorded && this.#matches(recorded, spec) ? await NamespaceSandbox.adopt(recorded) : undefined;
      if (adopted) return adopted;
      if (recorded) await NamespaceSandbox.kill(recorded, KILL_WITHIN_MS);
      const rootMountPoint = join(await this.root(), NAMESPACE_DIRECTORY, 'mnt');
      await mkdir(rootMountPoint, { recursive: true, mode: OWNER_ONLY_DIRECTORY_MODE });
      // A workspace from before sandboxes had an identity holds files the daemon's user owns.
      if (identity) await ownWorkspace(directory, identity);
      const started = await NamespaceSandbox.start({ ...spec, rootMountPoint, binds: [{ source: directory, target: this.request.workspacePath }] }).catch((error: unknown) => {
        throw new ProviderError(this.providerId, 'exec', 'could not start the workspace sandbox', error);
      });
      await file.write(started.record);
      return started;
    });
    this.#running.set(name, current);
    current.catch(() => {
      if (this.#running.get(name) === current) this.#running.delete(name);
    });
    return current;
  }

  /** Whether a recorded sandbox (of this daemon or one before it) is one this provider would start now. */
  #matches(record: SandboxRecord, spec: ProbeSpec): boolean {
    const sameIds = (a: SandboxIdentity | undefined, b: SandboxIdentity | undefined) => a?.uid === b?.uid && a?.gid === b?.gid;
    return (
      record.layout === 2 &&
      record.network === spec.network &&
      record.targets?.[0] === this.request.workspacePath &&
      sameIds(record.identity, spec.identity) &&
      JSON.stringify(record.cgroup?.limits ?? null) === JSON.stringify(spec.limits ?? null)
    );
  }

  async #file(name: string): Promise<HolderFile> {
    return new HolderFile(join(await this.root(), NAMESPACE_DIRECTORY, `${name}.json`));
  }
}
