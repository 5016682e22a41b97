/**
 * Starts a command inside a sandbox as a real process in its own process group (so the
 * whole tree can be signalled), isolated as `isolation.ts` describes, and registers it in
 * the sandbox's process table until it exits. A PTY command runs the same way (the same
 * launch, inside the same isolation) with a pseudo-terminal as its stdio (`pty-relay.ts`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { IsolationProbe } from './isolation.js';
import { ConnectRpcError } from './connect-framing.js';
import { normalizeSandboxPath, resolveSandboxPath } from '../sandbox/sandbox-paths.js';
import type { ProcessExit, SandboxProcess } from '../sandbox/sandbox-processes.js';
import type { SandboxRecord } from '../sandbox/sandbox-store.js';
import { homeOf, SANDBOX_PATH, type SandboxUser } from '../sandbox/sandbox-users.js';
import { signalSession, startPtyRelay, type PtyRelay, type PtySize } from './pty-relay.js';

export interface ProcessConfig {
  cmd: string;
  args: string[];
  envs: Record<string, string>;
  cwd: string | undefined;
  /** Who runs it: its uid when the sandbox's users are two identities, its HOME, USER and default cwd (envd: the user's home). */
  user: SandboxUser;
}

export type { ProcessExit };

export interface StartedProcess extends SandboxProcess {
  readonly child: ChildProcess;
  /** Resolves once the process exited and its stdout/stderr were drained. */
  readonly exit: Promise<ProcessExit>;
}


/**
 * Spawns `config` in `sandbox`. Throws ConnectRpcError when the cwd does not exist or the
 * executable cannot be started.
 */
export async function startSandboxProcess(
  sandbox: SandboxRecord,
  isolation: IsolationProbe,
  config: ProcessConfig,
  options: { stdin: boolean; tag: string | undefined; pty?: PtySize | undefined },
): Promise<StartedProcess> {
  const sandboxHome = homeOf(config.user);
  const sandboxCwd = normalizeSandboxPath(config.cwd ?? sandboxHome, sandboxHome);
  const hostCwd = await resolveCwd(sandbox, isolation, sandboxCwd);
  const namespaced = isolation.mode === 'mount-namespace';
  const home = namespaced ? sandboxHome : path.join(sandbox.directory, ...sandboxHome.split('/'));
  // Only a fixed base plus the sandbox's own variables: the emulator's environment (keys,
  // tokens) never leaks into commands.
  const env: Record<string, string> = {
    PATH: SANDBOX_PATH,
    HOME: home,
    USER: config.user,
    LOGNAME: config.user,
    SHELL: '/bin/bash',
    LANG: 'C.UTF-8',
    E2B_SANDBOX: 'true',
    E2B_SANDBOX_ID: sandbox.sandboxId,
    ...sandbox.envVars,
    ...config.envs,
  };
  const command = [config.cmd, ...config.args];
  const launch = namespaced ? await sandbox.namespace.launch(sandboxCwd, command, env, sandbox.owners.idInside(config.user)).catch(notStarted) : undefined;
  const argv = launch ? [launch.file, ...launch.args] : command;
  const cwd = launch ? undefined : hostCwd;
  // Namespaced, the command's environment rides inside the launcher's: a sandbox's PATH or
  // LD_PRELOAD must never steer the host side of the launch (nsenter, the cgroup shell).
  const launchEnv = launch ? launch.env : env;
  let relay: PtyRelay | undefined;
  let child: ChildProcess;
  if (options.pty) {
    relay = await startPtyRelay(argv, launchEnv, cwd, options.pty);
    child = relay.child;
  } else {
    child = spawn(argv[0] as string, argv.slice(1), spawnOptions(launchEnv, cwd, options.stdin));
  }
  const pid = relay ? (child.pid as number) : await spawned(child);
  // A command that exits without reading its stdin must not crash the emulator with EPIPE.
  child.stdin?.on('error', () => undefined);
  let closed = false;
  const exit = new Promise<ProcessExit>((resolve) => {
    child.on('close', (code, signal) => {
      closed = true;
      sandbox.processes.remove(pid);
      resolve(exitOf(code, signal));
    });
  });
  const started: StartedProcess = {
    pid,
    cmd: config.cmd,
    args: config.args,
    envs: config.envs,
    cwd: config.cwd,
    tag: options.tag,
    child,
    exit,
    writeStdin(data) {
      if (!child.stdin || child.stdin.writableEnded || closed) return false;
      child.stdin.write(data);
      return true;
    },
    closeStdin() {
      if (!child.stdin || child.stdin.writableEnded || closed) return false;
      child.stdin.end();
      return true;
    },
    pty: relay !== undefined,
    resize(size) {
      return relay?.resize(size) ?? false;
    },
    follow(onData) {
      // A terminal has one output; the relay's stderr is its own, never the command's.
      const streams = relay ? ([['stdout', 'pty']] as const) : ([['stdout', 'stdout'], ['stderr', 'stderr']] as const);
      const listeners = streams.map(([source, name]) => {
        const listener = (chunk: Buffer): void => onData(name, chunk);
        child[source]?.on('data', listener);
        return () => child[source]?.off('data', listener);
      });
      return { ended: exit, stop: () => listeners.forEach((remove) => remove()) };
    },
    signal(signal) {
      // The group outlives its leader while a descendant holds stdout/stderr open, so it is
      // signalled until 'close' (never after: the pgid could be reused).
      if (closed) return false;
      // The terminal's command leads a session of its own, beyond the relay's group.
      if (relay) void signalSession(relay.sessionId, signal);
      try {
        process.kill(-pid, signal);
        return true;
      } catch {
        return false;
      }
    },
  };
  sandbox.processes.add(started);
  return started;
}

function spawnOptions(env: Record<string, string>, cwd: string | undefined, stdin: boolean) {
  return {
    env,
    ...(cwd ? { cwd } : {}),
    // A new process group: timeouts and kills reach every descendant.
    detached: true,
    stdio: [stdin ? 'pipe' : 'ignore', 'pipe', 'pipe'] as ['pipe' | 'ignore', 'pipe', 'pipe'],
  };
}

function notStarted(error: unknown): never {
  throw new ConnectRpcError('internal', `error starting process: ${(error as Error).message}`);
}

/** Waits for spawn success; an ENOENT/EACCES becomes envd's "error starting process". */
function spawned(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    child.once('spawn', () => resolve(child.pid as number));
    child.once('error', (error) => reject(new ConnectRpcError('internal', `error starting process: ${error.message}`)));
  });
}

/** The sandbox directories the namespace shows from the sandbox's own files (see `namespaceSpec`). */
const BOUND_DIRECTORIES = ['/home/user', '/root', '/tmp'];

/** The cwd must exist as the command will see it; the host path is returned for the fallback mode. */
async function resolveCwd(sandbox: SandboxRecord, isolation: IsolationProbe, sandboxCwd: string): Promise<string> {
  const insideSandbox = isolation.mode === 'directory' || BOUND_DIRECTORIES.some((bound) => sandboxCwd === bound || sandboxCwd.startsWith(`${bound}/`));
  let hostCwd: string;
  if (insideSandbox) hostCwd = (await resolveSandboxPath(sandbox.directory, sandboxCwd, true)).hostPath;
  else if (sandboxCwd === '/home' || sandboxCwd.startsWith('/home/')) hostCwd = '';
  else hostCwd = sandboxCwd; // outside /home/user and /tmp the namespace shows the host's system directories
  const stats = hostCwd ? await stat(hostCwd).catch(() => undefined) : undefined;
  if (!stats?.isDirectory()) {
    throw new ConnectRpcError('internal', `error starting process: chdir ${sandboxCwd}: no such file or directory`);
  }
  return hostCwd;
}

const GO_SIGNAL_NAMES: Partial<Record<NodeJS.Signals, string>> = {
  SIGKILL: 'killed',
  SIGTERM: 'terminated',
  SIGINT: 'interrupt',
  SIGHUP: 'hangup',
  SIGQUIT: 'quit',
  SIGPIPE: 'broken pipe',
  SIGABRT: 'aborted',
  SIGSEGV: 'segmentation fault',
};

/** Go's ProcessState: exit code, or -1 and "signal: killed" when a signal ended it. */
function exitOf(code: number | null, signal: NodeJS.Signals | null): ProcessExit {
  if (code !== null) {
    const status = `exit status ${code}`;
    return { exitCode: code, exited: true, status, error: code === 0 ? undefined : status };
  }
  const status = `signal: ${(signal && GO_SIGNAL_NAMES[signal]) ?? signal ?? 'unknown'}`;
  return { exitCode: -1, exited: false, status, error: status };
}
