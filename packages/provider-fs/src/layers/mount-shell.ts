import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Socket } from 'node:net';

/** What a command the shell ran answered: its exit status and the first line it printed (stdout and stderr). */
export interface ShellResult {
  status: number;
  firstLine: string;
}

/** Bytes the shell reads to define `nl` (a newline), before any command. */
const PRELUDE = "nl='\n'\n";

/** Quotes one word for `sh`: inside single quotes everything is literal, a quote is closed, escaped and reopened. */
const quoted = (word: string) => `'${word.replace(/'/g, "'\\''")}'`;

/**
 * A shell kept running to start the store's `mount` and `umount` commands. Starting a command
 * from the daemon forks the whole daemon (about 8 ms each on the 2-core machines, twice per
 * checkpoint); from a small shell it forks the shell. One command at a time: each request is a
 * line of shell (in a subshell: `cd` then `exec`, its output captured) that answers one line, its
 * status and its first line of output. A request that outlasts its timeout kills the shell and
 * whatever it started (its own process group); the next request starts a new one. The shell
 * ends when the daemon does (its standard input closes), and never keeps the daemon's event loop
 * alive by itself.
 */
export class MountShell {
  #shell: { child: ChildProcessWithoutNullStreams; lines: AsyncIterator<string> } | undefined;
  #queue: Promise<unknown> = Promise.resolve();

  /** Runs `argv` (a command on the shell's PATH, its arguments) in directory `cwd`. */
  run(cwd: string, argv: readonly string[], timeoutMs: number): Promise<ShellResult> {
    const result = this.#queue.then(() => this.#run(cwd, argv, timeoutMs));
    this.#queue = result.catch(() => undefined);
    return result;
  }

  /** Stops the shell (a new one starts with the next request). */
  close(): void {
    const shell = this.#shell;
    this.#shell = undefined;
    if (shell && shell.child.exitCode === null && shell.child.pid !== undefined) {
      try {
        process.kill(-shell.child.pid, 'SIGKILL');
      } catch {
        // Gone already.
      }
    }
  }

  async #run(cwd: string, argv: readonly string[], timeoutMs: number): Promise<ShellResult> {
    const shell = this.#started();
    const command = `r=$( (cd -- ${quoted(cwd)} && exec ${argv.map(quoted).join(' ')}) 2>&1 </dev/null); s=$?; r=\${r%%"$nl"*}; printf '%s %s\\n' "$s" "$r"\n`;
    let timer: NodeJS.Timeout | undefined;
    try {
      shell.child.stdin.write(command);
      const answered = shell.lines.next();
      const timedOut = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${argv[0]} did not finish in ${timeoutMs} ms`)), timeoutMs);
      });
      const { value, done } = await Promise.race([answered, timedOut]);
      if (done) throw new Error(`the shell running ${argv[0]} ended`);
      const space = value.indexOf(' ');
      return { status: Number(value.slice(0, space)), firstLine: value.slice(space + 1) };
    } catch (error) {
      this.close();
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  #started(): { child: ChildProcessWithoutNullStreams; lines: AsyncIterator<string> } {
    if (this.#shell && this.#shell.child.exitCode === null && this.#shell.child.signalCode === null) return this.#shell;
    const child = spawn('/bin/sh', ['-s'], { detached: true, stdio: 'pipe', env: { PATH: '/usr/sbin:/usr/bin:/sbin:/bin', LC_ALL: 'C' } });
    child.on('error', () => undefined);
    child.stdin.on('error', () => undefined);
    child.stdin.write(PRELUDE);
    child.stderr.resume();
    child.unref();
    for (const stream of [child.stdin, child.stdout, child.stderr]) (stream as unknown as Socket).unref?.();
    this.#shell = { child, lines: createInterface({ input: child.stdout })[Symbol.asyncIterator]() };
    return this.#shell;
  }
}
