import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { OWNER_ONLY_DIRECTORY_MODE, OWNER_ONLY_FILE_MODE } from '@runtimectl/provider-local';

/** How often a waiting process looks at the lock files again. */
const POLL_MS = 20;
const HOLDER = /^(shared|exclusive)-(\d+)-(\d+)-[0-9a-f]{16}$/;

/**
 * A readers–writer lock across the processes sharing a snapshot store, in files: each holder
 * creates `<directory>/<shared|exclusive>-<pid>-<start time>-<random>` and then looks at the
 * others (create first, look second, on both sides: of a reader and a writer arriving together
 * at least one sees the other). A reader that sees a writer steps back and waits; a writer
 * waits until no reader is left; of two writers the one with the smaller name goes first. A
 * holder whose process is gone (its pid no longer runs, or runs a process started at another
 * time) is stale: its file is removed by whoever finds it, so a SIGKILLed daemon never blocks
 * the store. Processes sharing a store must see each other's pids (one machine, one pid namespace).
 */
export class ProcessLock {
  readonly #self = `${process.pid}-${startTimeOf(process.pid) ?? 0}`;

  constructor(readonly directory: string) {}

  async shared<T>(work: () => Promise<T>): Promise<T> {
    await mkdir(this.directory, { recursive: true, mode: OWNER_ONLY_DIRECTORY_MODE });
    for (;;) {
      const mine = await this.#create('shared');
      if (!(await this.#live()).some((name) => name.startsWith('exclusive-'))) return this.#holding(mine, work);
      await rm(join(this.directory, mine), { force: true });
      await sleep(POLL_MS);
    }
  }

  async exclusive<T>(work: () => Promise<T>): Promise<T> {
    await mkdir(this.directory, { recursive: true, mode: OWNER_ONLY_DIRECTORY_MODE });
    let mine = await this.#create('exclusive');
    for (;;) {
      const others = (await this.#live()).filter((name) => name !== mine);
      const writers = others.filter((name) => name.startsWith('exclusive-'));
      if (writers.some((name) => name < mine)) {
        // Another writer goes first: step back so its wait for readers is not blocked by us.
        await rm(join(this.directory, mine), { force: true });
        await sleep(POLL_MS);
        mine = await this.#create('exclusive');
        continue;
      }
      if (others.length === 0) return this.#holding(mine, work);
      await sleep(POLL_MS);
    }
  }

  async #holding<T>(mine: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } finally {
      await rm(join(this.directory, mine), { force: true });
    }
  }

  async #create(kind: 'shared' | 'exclusive'): Promise<string> {
    const name = `${kind}-${this.#self}-${randomBytes(8).toString('hex')}`;
    await writeFile(join(this.directory, name), '', { flag: 'wx', mode: OWNER_ONLY_FILE_MODE });
    return name;
  }

  /** The holders' files whose processes still run; stale ones are removed. */
  async #live(): Promise<string[]> {
    const live: string[] = [];
    for (const name of await readdir(this.directory)) {
      const holder = HOLDER.exec(name);
      if (!holder) continue;
      if (isRunning(Number(holder[2]), holder[3] as string)) live.push(name);
      else await rm(join(this.directory, name), { force: true });
    }
    return live;
  }
}

/** Whether `pid` runs and is the process that started at `startTime` (0: not known, pid only). */
function isRunning(pid: number, startTime: string): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
  }
  const now = startTimeOf(pid);
  return startTime === '0' || now === null || now === startTime;
}

/** A process's start time in clock ticks since boot (/proc/<pid>/stat field 22), null where unreadable. */
function startTimeOf(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}
