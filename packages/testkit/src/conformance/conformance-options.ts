import type { BackendProviderV1 } from '@runtimectl/core';

/**
 * What a factory hands the suite: the provider, or the provider plus a cleanup run after the
 * test (stop an emulator, remove a temporary root). The suite releases every backend it
 * created and closes every runtime it opened before calling `cleanup`.
 */
export type ProviderUnderTest = BackendProviderV1 | { provider: BackendProviderV1; cleanup?: () => void | Promise<void> };

/** Called once per test: every test gets a fresh provider. May be async. */
export type ProviderFactory = () => ProviderUnderTest | Promise<ProviderUnderTest>;

/**
 * Facts about the provider that the contract cannot reveal, so the suite must be told. Snapshot
 * support is never declared here: it is read from which optional methods the provider has.
 */
export interface ConformanceCapabilities {
  /**
   * `exec` runs commands with a real POSIX shell (`sh -c`) that has background jobs (`&`),
   * `kill`, `trap`, `head`, `/dev/zero` and `/proc` or `kill -0`. Turns on the tests that need
   * one: the timeout kills the whole process tree, a command ignoring SIGTERM is still killed,
   * output far beyond the cap is drained until the command exits, output written line by line
   * over time arrives whole (and past the cap is exactly the cap). Default false.
   */
  posixShell?: boolean;
  /**
   * Commands can make FIFOs (`mkfifo`) that the file API then opens in this process, as the
   * local provider's does. Turns on the tests that read, write and export FIFOs and expect a quick
   * refusal. Off for a provider whose files are read elsewhere (E2B: envd reads a FIFO inside the
   * sandbox; the daemon only waits, at most its request deadline). Default false.
   */
  specialFiles?: boolean;
  /**
   * Commands run isolated from the process running the provider (the daemon): they cannot read
   * its environment through /proc, files of its state directory, or another backend's workspace.
   * Turns on the command-isolation tests (they need `posixShell` too). Off for a provider whose
   * commands are not real processes (memory). Default false.
   */
  isolatedCommands?: boolean;
  /**
   * The file API acts inside the backend's own sandbox (E2B: envd), never on this host's file
   * system, so a symbolic link a command plants can lead it only within that sandbox, where the
   * caller's commands reach everything anyway. The symlink area then checks only what protects
   * the host: a directory outside the workspace is never read, written, created or removed, and
   * no answer holds its content; an operation may follow a link within the sandbox (answer, or
   * `path_not_found` for a target the sandbox lacks). Default false: every operation through a
   * link leading out of the workspace must be refused with `invalid_request` or act on the link
   * itself — what a provider whose workspace is on the host must do.
   */
  filesInSandbox?: boolean;
}

/**
 * The resource limits the provider under test holds each backend's commands to, as
 * `createProvider` set them up, so the suite can go over them. Absent: the limit cases skip.
 */
export interface ConformanceLimits {
  /** Memory of one backend's commands together; the suite allocates four times as much. */
  memoryBytes?: number;
  /** Processes of one backend's commands together; the suite runs a fork bomb at it. */
  pids?: number;
  /**
   * The provider's answer says which limit stopped a command (`memory limit`, `process limit` in
   * its stderr), not only that it was killed. Default false: a kill (exit status, or no exit code) suffices.
   */
  reportsReason?: boolean;
}

export interface ConformanceTimeouts {
  /** Per test. Default 30 s. */
  testMs: number;
  /** Per setup/teardown hook (creating the provider, releasing backends). Default 60 s. */
  hookMs: number;
  /**
   * How long after its own timeout a timed-out command may take to come back, i.e. how fast the
   * provider must kill it. Default 5 s.
   */
  killWithinMs: number;
}

export interface ProviderConformanceOptions {
  /** Shown in the `describe` title, e.g. `local` or `e2b (emulator)`. */
  name: string;
  createProvider: ProviderFactory;
  timeouts?: Partial<ConformanceTimeouts>;
  capabilities?: ConformanceCapabilities;
  limits?: ConformanceLimits;
}

export interface ResolvedConformanceOptions {
  name: string;
  createProvider: ProviderFactory;
  timeouts: ConformanceTimeouts;
  capabilities: Required<ConformanceCapabilities>;
  limits: ConformanceLimits | undefined;
}

export const DEFAULT_TIMEOUTS: ConformanceTimeouts = { testMs: 30_000, hookMs: 60_000, killWithinMs: 5_000 };

export function resolveConformanceOptions(options: ProviderConformanceOptions): ResolvedConformanceOptions {
  return {
    name: options.name,
    createProvider: options.createProvider,
    timeouts: { ...DEFAULT_TIMEOUTS, ...options.timeouts },
    capabilities: {
      posixShell: options.capabilities?.posixShell ?? false,
      specialFiles: options.capabilities?.specialFiles ?? false,
      isolatedCommands: options.capabilities?.isolatedCommands ?? false,
      filesInSandbox: options.capabilities?.filesInSandbox ?? false,
    },
    limits: options.limits,
  };
}
