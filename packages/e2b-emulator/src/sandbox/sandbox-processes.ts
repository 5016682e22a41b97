/**
 * The processes running inside one sandbox, by envd pid. The store uses it to kill every
 * process group when the sandbox dies and to freeze them while it is paused or a snapshot is copied.
 */

/** How a process ended, as envd's `end` event reports it (Go's ProcessState). */
export interface ProcessExit {
  exitCode: number;
  exited: boolean;
  status: string;
  error: string | undefined;
}

/** A follower of a running process (`commands.connect`): its exit, and how to stop following. */
/** Where output comes from: a command's pipes, or a PTY's terminal. */
export type OutputStream = 'stdout' | 'stderr' | 'pty';

export interface ProcessFollower {
  readonly ended: Promise<ProcessExit>;
  stop(): void;
}

/** One process started through `process.Process/Start`, as `process.Process/List` shows it. */
export interface SandboxProcess {
  /** The pid envd reports (the real host pid of the process group leader). */
  readonly pid: number;
  readonly cmd: string;
  readonly args: string[];
  readonly envs: Record<string, string>;
  readonly cwd: string | undefined;
  readonly tag: string | undefined;
  /** Sends a signal to the whole process group; false when it already exited. */
  signal(signal: NodeJS.Signals): boolean;
  /** Writes to stdin; false when the process was started without stdin or it was closed. */
  writeStdin(data: Buffer): boolean;
  /** Closes stdin (EOF); false when there is no open stdin. */
  closeStdin(): boolean;
  /** Whether it runs on a pseudo-terminal (`pty.create`): input and output are the terminal's. */
  readonly pty: boolean;
  /** Changes its terminal's size; false when it has none or it is gone. */
  resize(size: { cols: number; rows: number }): boolean;
  /** Hands every later output chunk (stdout/stderr, or the terminal's) to `onData` until the process ends or `stop`. */
  follow(onData: (stream: OutputStream, chunk: Buffer) => void): ProcessFollower;
}

export class SandboxProcesses {
  private readonly byPid = new Map<number, SandboxProcess>();

  add(process: SandboxProcess): void {
    this.byPid.set(process.pid, process);
  }

  remove(pid: number): void {
    this.byPid.delete(pid);
  }

  get(pid: number): SandboxProcess | undefined {
    return this.byPid.get(pid);
  }

  /** The process with `pid`, or else the one tagged `tag` (envd's ProcessSelector). */
  find(selector: { pid?: number | undefined; tag?: string | undefined }): SandboxProcess | undefined {
    if (selector.pid !== undefined) return this.byPid.get(selector.pid);
    return this.list().find((process) => process.tag !== undefined && process.tag === selector.tag);
  }

  list(): SandboxProcess[] {
    return [...this.byPid.values()];
  }

  get size(): number {
    return this.byPid.size;
  }

  /** Signals every process group (SIGKILL on sandbox death, SIGSTOP/SIGCONT around a snapshot and a pause). */
  signalAll(signal: NodeJS.Signals): void {
    for (const process of this.byPid.values()) process.signal(signal);
  }
}
