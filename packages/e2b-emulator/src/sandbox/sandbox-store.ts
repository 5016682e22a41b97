/**
 * Live sandboxes: each one a real directory under `<root>/sandboxes/<id>` holding its
 * filesystem, with E2B's lifecycle: running ⇄ paused, a timeout that kills (or, with
 * `autoPause`, pauses) it when it lapses, and kill removing the directory for good.
 */
import { mkdir, rm } from 'node:fs/promises';
import { copySandboxTree } from './copy-sandbox-tree.js';
import path from 'node:path';
import { randomAccessToken, randomId } from './sandbox-ids.js';
import { namespaceSpec, type NamespaceFeatures } from '../envd/isolation.js';
import { SandboxNamespace } from './sandbox-namespace.js';
import { SandboxOwners } from './sandbox-owners.js';
import { SandboxProcesses } from './sandbox-processes.js';
import { SandboxMetricsHistory } from './sandbox-metrics.js';
import { SandboxStreams } from './sandbox-streams.js';

export type SandboxState = 'running' | 'paused';

export interface SandboxRecord {
  readonly sandboxId: string;
  /** The template (or snapshot template) the sandbox was created from. */
  readonly templateId: string;
  readonly alias: string | undefined;
  readonly envdAccessToken: string;
  readonly metadata: Record<string, string>;
  /** Environment of every command, from the create request's `envVars`. */
  readonly envVars: Record<string, string>;
  readonly startedAtMs: number;
  readonly onTimeout: 'kill' | 'pause';
  /** Whether a pause on timeout keeps memory (`autoPauseMemory`; false: a filesystem-only pause). */
  readonly onTimeoutKeepsMemory: boolean;
  readonly allowInternetAccess: boolean;
  /** Host directory that is the sandbox's `/`. */
  readonly directory: string;
  readonly processes: SandboxProcesses;
  /** Where its commands run when the emulator isolates them with namespaces. */
  readonly namespace: SandboxNamespace;
  /** Who its files belong to, and who runs its commands (see SandboxOwners). */
  readonly owners: SandboxOwners;
  /** Open command streams, broken when the sandbox is killed or paused. */
  readonly streams: SandboxStreams;
  /** Resource samples for `GET /sandboxes/{id}/metrics`. */
  readonly metrics: SandboxMetricsHistory;
  state: SandboxState;
  endAtMs: number;
  /** Set while a snapshot copies the directory; a second snapshot answers 409. */
  snapshotting: boolean;
  /** Set while a filesystem-only pause (or a reboot) ends what runs in it; a resume waits for it. */
  poweringOff: Promise<void> | undefined;
}

export interface CreateSandboxInput {
  templateId: string;
  alias?: string | undefined;
  /** Directory copied as the sandbox's filesystem; an empty one is made when absent. */
  seedDirectory?: string | undefined;
  metadata?: Record<string, string> | undefined;
  envVars?: Record<string, string> | undefined;
  timeoutSeconds: number;
  onTimeout?: 'kill' | 'pause';
  onTimeoutKeepsMemory?: boolean | undefined;
  allowInternetAccess?: boolean | undefined;
}

/** setTimeout's ceiling (~24.8 days); longer sandbox timeouts re-arm when it fires. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export class SandboxStore {
  private readonly sandboxes = new Map<string, SandboxRecord>();
  private readonly timers = new Map<string, NodeJS.Timeout>();

  /** Killed sandboxes whose namespace and directory are still being removed. */
  private readonly teardowns = new Set<Promise<void>>();

  constructor(
    private readonly root: string,
    private readonly now: () => number = Date.now,
    /** Commands run in namespace sandboxes: start each sandbox's namespace when it is created. */
    private readonly warmNamespaces = false,
    /** The network, limits and tools each sandbox's namespace gets (see `namespaceSpec`). */
    private readonly namespaces?: NamespaceFeatures,
  ) {
    this.owners = new SandboxOwners(namespaces?.users);
  }

  /** One for every sandbox: `user` and `root` are the same two host identities (or one) in all. */
  private readonly owners: SandboxOwners;

  /** Sandboxes whose create is copying their directory: counted by the limit, not yet nameable. */
  private starting = 0;



  /**
   * Creates a running sandbox. It counts in `runningCount()` from the start, so concurrent
   * creates cannot overrun the concurrency limit, but it is registered (listed, found, killable)
   * only once its directory is ready, as E2B shows a sandbox once its create made it.
   */
  async create(input: CreateSandboxInput): Promise<SandboxRecord> {
    const sandboxId = `i${randomId(19)}`;
    const startedAtMs = this.now();
    const record: SandboxRecord = {
      sandboxId,
      templateId: input.templateId,
      alias: input.alias,
      envdAccessToken: randomAccessToken(),
      metadata: { ...input.metadata },
      envVars: { ...input.envVars },
      startedAtMs,
      onTimeout: input.onTimeout ?? 'kill',
      onTimeoutKeepsMemory: input.onTimeoutKeepsMemory ?? true,
      allowInternetAccess: input.allowInternetAccess ?? true,
      directory: path.join(this.root, 'sandboxes', sandboxId),
      processes: new SandboxProcesses(),
      namespace: new SandboxNamespace(namespaceSpec(this.root, path.join(this.root, 'sandboxes', sandboxId), this.namespaces, input.allowInternetAccess ?? true)),
      owners: this.owners,
      streams: new SandboxStreams(),
      metrics: new SandboxMetricsHistory(),
      state: 'running',
      endAtMs: startedAtMs + input.timeoutSeconds * 1000,
      snapshotting: false,
      poweringOff: undefined,
    };
    this.starting += 1;
    try {
      if (input.seedDirectory) {
        await copySandboxTree(input.seedDirectory, record.directory);
      }
      await mkdir(path.join(record.directory, 'home', 'user'), { recursive: true });
      await mkdir(path.join(record.directory, 'root'), { recursive: true, mode: 0o700 });
      await mkdir(path.join(record.directory, 'tmp'), { recursive: true, mode: 0o1777 });
      await this.owners.prepare(record.directory);
    } catch (error) {
      await rm(record.directory, { recursive: true, force: true });
      throw error;
    } finally {
      this.starting -= 1;
    }
    this.sandboxes.set(sandboxId, record);
    if (this.warmNamespaces) record.namespace.warm();
    this.armTimer(record);
    return record;
  }

  get(sandboxId: string): SandboxRecord | undefined {
    return this.sandboxes.get(sandboxId);
  }

  /** The sandbox if it is running (envd answers only for those). */
  getRunning(sandboxId: string): SandboxRecord | undefined {
    const record = this.sandboxes.get(sandboxId);
    return record?.state === 'running' ? record : undefined;
  }

  all(): SandboxRecord[] {
    return [...this.sandboxes.values()];
  }

  /** Running sandboxes and those being created: the ones E2B's concurrency limit counts. */
  runningCount(): number {
    let count = this.starting;
    for (const record of this.sandboxes.values()) if (record.state === 'running') count += 1;
    return count;
  }

  /**
   * Breaks the command streams and kills processes at once; the namespace (with everything in
   * it) and the directory go in the background, as E2B's kill answers before the VM is gone —
   * a namespace still starting would otherwise hold the answer for seconds. `killAll` waits for
   * them. Idempotent: false when the id is unknown.
   */
  async kill(sandboxId: string): Promise<boolean> {
    const record = this.sandboxes.get(sandboxId);
    if (!record) return false;
    this.sandboxes.delete(sandboxId);
    this.clearTimer(sandboxId);
    record.streams.severAll();
    record.processes.signalAll('SIGKILL');
    const teardown: Promise<void> = record.namespace
      .stop()
      .then(() => rm(record.directory, { recursive: true, force: true }))
      .catch(() => undefined)
      .finally(() => this.teardowns.delete(teardown));
    this.teardowns.add(teardown);
    return true;
  }

  /**
   * Pauses a running sandbox as E2B does; its command streams break and the directory stays.
   * With memory (the default) its processes are frozen (SIGSTOP to every process group) until
   * `resume`. Without (`keepMemory: false`, E2B's filesystem-only pause) everything running in
   * it ends, as a VM shut down with only its disk kept: resuming it is a cold boot (a namespace
   * started afresh, with a new boot id). False when it was not running.
   */
  async pause(sandboxId: string, keepMemory = true): Promise<boolean> {
    const record = this.sandboxes.get(sandboxId);
    if (!record || record.state !== 'running') return false;
    record.state = 'paused';
    this.clearTimer(sandboxId);
    record.streams.severAll();
    if (keepMemory) record.processes.signalAll('SIGSTOP');
    else await this.powerOff(record);
    return true;
  }

  /**
   * Resumes a paused sandbox with a fresh timeout; its processes continue where they were
   * (SIGCONT), unless a snapshot is copying it (the snapshot continues them when it is done).
   * `reboot` (a connect with `memory: false`) drops its memory first, as a filesystem-only pause
   * would have: it boots cold.
   */
  async resume(record: SandboxRecord, timeoutSeconds: number, reboot = false): Promise<void> {
    if (reboot) await this.powerOff(record);
    await record.poweringOff;
    record.state = 'running';
    record.endAtMs = this.now() + timeoutSeconds * 1000;
    this.armTimer(record);
    if (!record.snapshotting) record.processes.signalAll('SIGCONT');
    if (this.warmNamespaces && !record.namespace.started) record.namespace.warm();
  }

  /** Ends everything running in the sandbox (its processes, its namespace); its files stay. */
  private powerOff(record: SandboxRecord): Promise<void> {
    record.processes.signalAll('SIGKILL');
    const poweringOff = record.namespace.stop().finally(() => {
      if (record.poweringOff === poweringOff) record.poweringOff = undefined;
    });
    record.poweringOff = poweringOff;
    return poweringOff;
  }

  /** Connect to a running sandbox: the timeout only ever grows (E2B never shortens it here). */
  extendTimeout(record: SandboxRecord, timeoutSeconds: number): void {
    record.endAtMs = Math.max(record.endAtMs, this.now() + timeoutSeconds * 1000);
    this.armTimer(record);
  }

  /** `POST /sandboxes/{id}/timeout`: the sandbox now ends `timeoutSeconds` from now. */
  setTimeout(record: SandboxRecord, timeoutSeconds: number): void {
    record.endAtMs = this.now() + timeoutSeconds * 1000;
    this.armTimer(record);
  }

  /**
   * Lets the sandbox's timeout lapse now (kill, or pause with autoPause), exactly as the
   * timer would. False when it is not running.
   */
  async expireNow(sandboxId: string): Promise<boolean> {
    const record = this.getRunning(sandboxId);
    if (!record) return false;
    record.endAtMs = this.now();
    await this.expire(sandboxId);
    return true;
  }

  /** Kills every sandbox and waits until every killed one is gone (emulator shutdown). */
  async killAll(): Promise<void> {
    await Promise.all([...this.sandboxes.keys()].map((sandboxId) => this.kill(sandboxId)));
    await Promise.all([...this.teardowns]);
  }

  private armTimer(record: SandboxRecord): void {
    this.clearTimer(record.sandboxId);
    const delayMs = Math.min(Math.max(record.endAtMs - this.now(), 0), MAX_TIMER_MS);
    const timer = setTimeout(() => void this.expire(record.sandboxId), delayMs);
    timer.unref();
    this.timers.set(record.sandboxId, timer);
  }

  private clearTimer(sandboxId: string): void {
    const timer = this.timers.get(sandboxId);
    if (timer) clearTimeout(timer);
    this.timers.delete(sandboxId);
  }

  private async expire(sandboxId: string): Promise<void> {
    const record = this.sandboxes.get(sandboxId);
    if (!record || record.state !== 'running') return;
    if (record.endAtMs > this.now()) {
      this.armTimer(record);
      return;
    }
    if (record.onTimeout === 'pause') await this.pause(sandboxId, record.onTimeoutKeepsMemory);
    else await this.kill(sandboxId);
  }
}
