/**
 * Watches one sandbox directory (and, recursively, the directories under it) for envd's
 * `WatchDir`: inotify through `fs.watch`, one watch per directory, as envd's fsnotify watcher
 * keeps them. Node reports `rename` and `change` only; they map to envd's event types by what
 * is there afterwards: `rename` of a path that exists is CREATE, of one that is gone REMOVE
 * (inotify's moved-from, envd's RENAME, reads as REMOVE here); `change` is CHMOD when the mode
 * differs from the one the watcher last saw (entries present at the start are seen then), else
 * WRITE. Both are judged when the event is handled: changes quicker than that read as the state
 * they left behind.
 *
 * A watch never leaves the sandbox: each directory is opened without following a final
 * symlink, the open descriptor's real path is checked to lie inside the sandbox directory, and
 * the watch is put on that descriptor (`/proc/self/fd/N`), so a directory swapped for a symlink
 * after the check cannot redirect it. Subdirectories reached through symlinks are not descended.
 */
import { constants, watch, type FSWatcher } from 'node:fs';
import { lstat, open, readdir, readlink, realpath } from 'node:fs/promises';
import path from 'node:path';
import type { ResolvedPath } from '../sandbox/sandbox-paths.js';

export type WatchEventType = 'EVENT_TYPE_CREATE' | 'EVENT_TYPE_WRITE' | 'EVENT_TYPE_REMOVE' | 'EVENT_TYPE_RENAME' | 'EVENT_TYPE_CHMOD';

export interface DirectoryEvent {
  /** Relative to the watched directory (`nested/file.txt` in a recursive watch), as envd names it. */
  name: string;
  type: WatchEventType;
  /** Where the entry is, for envd's optional `entry` info. */
  entry: ResolvedPath;
}

/**
 * Directories one watch may hold: each is an inotify watch of the host's, shared by every
 * sandbox; a sandbox making directories without end must not exhaust them for the others.
 */
export const MAX_WATCHED_DIRECTORIES = 1_024;

/** More directories than MAX_WATCHED_DIRECTORIES under a recursive watch. */
export class TooManyWatchedDirectoriesError extends Error {
  constructor() {
    super(`a watch holds at most ${MAX_WATCHED_DIRECTORIES} directories`);
    this.name = 'TooManyWatchedDirectoriesError';
  }
}

/** Entries of a directory whose mode is noted when its watch starts (to tell a later chmod from a write). */
const MAX_SEEN_MODES_PER_DIRECTORY = 1_000;

const OPEN_DIRECTORY_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;

export class DirectoryWatcher {
  readonly #watchers = new Map<string, FSWatcher>();
  readonly #modes = new Map<string, number>();
  #closed = false;

  private constructor(
    private readonly sandboxRoot: string,
    private readonly root: ResolvedPath,
    private readonly recursive: boolean,
    private readonly onEvent: (event: DirectoryEvent) => void,
    private readonly onError: (error: Error) => void,
  ) {}

  /**
   * Starts watching `root` (a resolved directory of the sandbox in `sandboxDir`). Throws when it
   * cannot be watched (gone, not a directory, outside the sandbox, too many directories).
   */
  static async start(
    sandboxDir: string,
    root: ResolvedPath,
    options: { recursive: boolean },
    onEvent: (event: DirectoryEvent) => void,
    onError: (error: Error) => void,
  ): Promise<DirectoryWatcher> {
    const watcher = new DirectoryWatcher(await realpath(sandboxDir), root, options.recursive, onEvent, onError);
    try {
      await watcher.#add('');
    } catch (error) {
      watcher.close();
      throw error;
    }
    return watcher;
  }

  /** Stops every watch. Idempotent. */
  close(): void {
    this.#closed = true;
    for (const watcher of this.#watchers.values()) watcher.close();
    this.#watchers.clear();
  }

  /** Watches the directory at `relative` (and, when recursive, those under it). */
  async #add(relative: string): Promise<void> {
    if (this.#closed || this.#watchers.has(relative)) return;
    if (this.#watchers.size >= MAX_WATCHED_DIRECTORIES) throw new TooManyWatchedDirectoriesError();
    const hostPath = this.#hostPathOf(relative);
    const handle = await open(hostPath, OPEN_DIRECTORY_FLAGS);
    try {
      const opened = await readlink(`/proc/self/fd/${handle.fd}`);
      if (opened !== this.sandboxRoot && !opened.startsWith(`${this.sandboxRoot}/`)) {
        throw new Error(`${relative || '.'} is not inside the sandbox`);
      }
      if (this.#closed) return;
      const watcher = watch(`/proc/self/fd/${handle.fd}`, { persistent: false }, (kind, filename) => {
        if (filename) void this.#handle(kind, relative === '' ? filename : `${relative}/${filename}`);
      });
      // A watched directory that is removed ends its watch; the others go on.
      watcher.on('error', () => this.#remove(relative));
      this.#watchers.set(relative, watcher);
    } finally {
      await handle.close();
    }
    const entries = await readdir(hostPath, { withFileTypes: true }).catch(() => []);
    for (const entry of entries.slice(0, MAX_SEEN_MODES_PER_DIRECTORY)) {
      const name = relative === '' ? entry.name : `${relative}/${entry.name}`;
      const stats = await lstat(path.join(hostPath, entry.name)).catch(() => undefined);
      if (stats) this.#modes.set(name, stats.mode);
    }
    if (!this.recursive) return;
    for (const entry of entries) {
      if (entry.isDirectory()) await this.#add(relative === '' ? entry.name : `${relative}/${entry.name}`).catch(ignoreVanished);
    }
  }

  #remove(relative: string): void {
    for (const [key, watcher] of this.#watchers) {
      if (key === relative || key.startsWith(`${relative}/`)) {
        watcher.close();
        this.#watchers.delete(key);
      }
    }
  }

  async #handle(kind: string, name: string): Promise<void> {
    const entry: ResolvedPath = { hostPath: this.#hostPathOf(name), sandboxPath: path.posix.join(this.root.sandboxPath, name) };
    const stats = await lstat(entry.hostPath).catch(() => undefined);
    if (this.#closed) return;
    const previousMode = this.#modes.get(name);
    if (stats) this.#modes.set(name, stats.mode);
    else this.#modes.delete(name);
    let type: WatchEventType;
    if (kind === 'rename') type = stats ? 'EVENT_TYPE_CREATE' : 'EVENT_TYPE_REMOVE';
    else type = stats && previousMode !== undefined && previousMode !== stats.mode ? 'EVENT_TYPE_CHMOD' : 'EVENT_TYPE_WRITE';
    this.onEvent({ name, type, entry });
    if (!this.recursive) return;
    if (type === 'EVENT_TYPE_REMOVE') this.#remove(name);
    else if (type === 'EVENT_TYPE_CREATE' && stats?.isDirectory()) {
      await this.#add(name).catch((error: unknown) => {
        if (error instanceof TooManyWatchedDirectoriesError) this.onError(error);
      });
    }
  }

  #hostPathOf(relative: string): string {
    return relative === '' ? this.root.hostPath : path.join(this.root.hostPath, ...relative.split('/'));
  }
}

/** A subdirectory removed (or swapped) while the watch was being set up is simply not watched. */
function ignoreVanished(error: unknown): void {
  if (error instanceof TooManyWatchedDirectoriesError) throw error;
}
