import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { HolderFile, NamespaceSandbox, probeNamespaceSandbox, type Launch } from '@runtimectl/namespace-sandbox';
import { ProviderError } from '@runtimectl/core';
import { assertRunnableShell } from './runnable-shell';
import { OWNER_ONLY_DIRECTORY_MODE } from '../owner-only';

/** `auto`: namespaces where this machine allows them, else none; `namespace`: required; `none`: host processes. */
export type LocalIsolation = 'auto' | 'namespace' | 'none';

/** The isolation commands actually get, and why not namespaces when they do not. */
export interface IsolationInForce {
  mode: 'namespace' | 'none';
  network: boolean;
  reason?: string;
}

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
  #inForce: Promise<IsolationInForce> | undefined;

  constructor(
    /** The provider its errors name. */
    private readonly providerId: string,
    private readonly root: () => Promise<string>,
    private readonly requested: LocalIsolation,
    private readonly network: boolean,
  ) {}

  /** Probes once (unless `none`); rejects when `namespace` was required and cannot work here. */
  inForce(): Promise<IsolationInForce> {
    this.#inForce ??= this.#decide();
    return this.#inForce;
  }

  /** How to run `argv` at `cwd` for workspace `name`: inside its sandbox, or undefined for a host process. */
  async launch(name: string, workspaceRoot: string, cwd: string, argv: string[]): Promise<Launch | undefined> {
    if ((await this.inForce()).mode === 'none') return undefined;
    await assertRunnableShell(argv[0]!);
    return (await this.#sandbox(name, workspaceRoot)).launch(cwd, argv);
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

  async #decide(): Promise<IsolationInForce> {
    if (this.requested === 'none') return { mode: 'none', network: true, reason: 'isolation = "none" in the settings' };
    const scratch = join(await this.root(), NAMESPACE_DIRECTORY, 'probe');
    await mkdir(scratch, { recursive: true, mode: OWNER_ONLY_DIRECTORY_MODE });
    const probe = await probeNamespaceSandbox(scratch, this.network);
    if (probe.available) return { mode: 'namespace', network: this.network };
    if (this.requested === 'namespace') throw new Error(`local provider: isolation "namespace" is not available on this machine: ${probe.reason}`);
    return { mode: 'none', network: true, reason: probe.reason };
  }

  /** The workspace's running sandbox: this daemon's, a recorded one still running, or a new one. */
  #sandbox(name: string, workspaceRoot: string): Promise<NamespaceSandbox> {
    const known = this.#running.get(name);
    const current = (known ?? Promise.resolve(undefined)).catch(() => undefined).then(async (sandbox) => {
      if (sandbox && (await sandbox.isRunning())) return sandbox;
      const file = await this.#file(name);
      const recorded = await file.read();
      const adopted = recorded && recorded.network === this.network ? await NamespaceSandbox.adopt(recorded) : undefined;
      if (adopted) return adopted;
      if (recorded) await NamespaceSandbox.kill(recorded, KILL_WITHIN_MS);
      const rootMountPoint = join(await this.root(), NAMESPACE_DIRECTORY, 'mnt');
      await mkdir(rootMountPoint, { recursive: true, mode: OWNER_ONLY_DIRECTORY_MODE });
      const started = await NamespaceSandbox.start({
        rootMountPoint,
        binds: [{ source: workspaceRoot, target: workspaceRoot }],
        network: this.network,
      }).catch((error: unknown) => {
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

  async #file(name: string): Promise<HolderFile> {
    return new HolderFile(join(await this.root(), NAMESPACE_DIRECTORY, `${name}.json`));
  }
}
