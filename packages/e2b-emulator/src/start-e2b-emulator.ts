/**
 * `startE2BEmulator(options)`: one HTTP server emulating E2B's control plane and envd for the
 * real `e2b` SDK. Point the SDK's `apiUrl` and `sandboxUrl` at the returned URLs (any
 * `apiKey`, debug off).
 */
import { chmod, mkdir, mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { EmulatorControls } from './admin/admin-types.js';
import { localControls } from './admin/local-controls.js';
import type { EmulatorContext } from './emulator-context.js';
import { probeIsolation, type IsolationFeatures, type IsolationPreference, type IsolationProbe } from './envd/isolation.js';
import { createEmulatorServer } from './http/emulator-server.js';
import { CallLog } from './knobs/call-log.js';
import { EmulatorKnobs } from './knobs/emulator-knobs.js';
import type { EmulatorOperation } from './knobs/operations.js';
import { SandboxStore } from './sandbox/sandbox-store.js';
import { SnapshotStore } from './sandbox/snapshot-store.js';
import { TemplateCatalog, type BuiltinTemplate } from './sandbox/template-catalog.js';

export interface E2BEmulatorOptions {
  /** TCP port; 0 (default) picks a free one. */
  port?: number;
  /** Interface to listen on; default `127.0.0.1`. */
  host?: string;
  /**
   * Directory for sandbox and snapshot directories. Default: a fresh temp directory, removed
   * on close. With a given root only its `sandboxes/` and `templates/` children are removed.
   */
  root?: string;
  /** Per-operation latency in ms, applied before each call is answered. */
  latencyMs?: Partial<Record<EmulatorOperation, number>>;
  /** Concurrent running sandboxes; create/resume beyond it answers 429. Default unlimited. */
  maxSandboxes?: number | null;
  /** Templates besides `base` that start a sandbox, optionally seeded from a host directory. */
  templates?: Array<string | BuiltinTemplate>;
  /** Team namespace of named snapshots (`<team>/<name>:default`). Default `emulator-team`. */
  teamSlug?: string;
  /**
   * envd version reported to the SDK. Default `0.6.4`: every path the SDK gates on it is
   * emulated (octet-stream uploads, CloseStdin, file metadata 0.6.2+, watch entry info 0.6.3+,
   * network-mount watches 0.6.4+); a lower one makes the SDK refuse the newer features itself.
   */
  envdVersion?: string;
  /** Sandbox timeout when a request names none. Default 300 s, as E2B. */
  defaultTimeoutSeconds?: number;
  /** `auto` (default) uses a mount namespace per command when permitted. */
  isolation?: IsolationPreference;
  /**
   * With namespaces: sandboxes' network (default `egress`: the internet but not the host's
   * loopback, as on E2B; none without slirp4netns or pasta) and limits (default none).
   */
  features?: IsolationFeatures;
}

export interface E2BEmulator extends EmulatorControls {
  /** Control-plane base URL: the SDK's `apiUrl`. */
  readonly apiUrl: string;
  /** envd base URL: the SDK's `sandboxUrl` (the same server). */
  readonly sandboxUrl: string;
  readonly port: number;
  readonly host: string;
  readonly root: string;
  /** Whether commands run in a private mount namespace, and why not if they don't. */
  readonly isolation: IsolationProbe;
  /** Kills every sandbox, deletes sandbox and snapshot directories, stops the server. Idempotent. */
  close(): Promise<void>;
}

export async function startE2BEmulator(options: E2BEmulatorOptions = {}): Promise<E2BEmulator> {
  const ownsRoot = options.root === undefined;
  const root = options.root ? path.resolve(options.root) : await mkdtemp(path.join(os.tmpdir(), 'e2b-emulator-'));
  // Owner-only: a sandbox's root may leave a setuid program there, which on the host runs as
  // the sandbox identity (see SandboxOwners); no host user may reach one, live or in a snapshot.
  for (const directory of ['sandboxes', 'templates']) {
    await mkdir(path.join(root, directory), { recursive: true, mode: 0o700 });
    await chmod(path.join(root, directory), 0o700);
  }
  const isolation = await probeIsolation(root, options.isolation ?? 'auto', options.features);
  const snapshots = new SnapshotStore(root, options.teamSlug ?? 'emulator-team');
  const context: EmulatorContext = {
    root,
    sandboxes: new SandboxStore(root, Date.now, isolation.mode === 'mount-namespace', isolation),
    snapshots,
    templates: new TemplateCatalog(
      (options.templates ?? []).map((template) => (typeof template === 'string' ? { name: template } : template)),
      snapshots,
    ),
    knobs: new EmulatorKnobs(options.latencyMs, options.maxSandboxes ?? null),
    calls: new CallLog(),
    isolation,
    envdVersion: options.envdVersion ?? '0.6.4',
    defaultTimeoutSeconds: options.defaultTimeoutSeconds ?? 300,
  };
  const controls = localControls(context);
  const server = createEmulatorServer(context, controls);
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const baseUrl = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await stopped;
      await context.sandboxes.killAll();
      await context.snapshots.deleteAll();
      if (ownsRoot) await rm(root, { recursive: true, force: true });
      else {
        await rm(path.join(root, 'sandboxes'), { recursive: true, force: true });
        await rm(path.join(root, 'templates'), { recursive: true, force: true });
      }
    })();
    return closing;
  };

  return { ...controls, apiUrl: baseUrl, sandboxUrl: baseUrl, port, host, root, isolation, close };
}
