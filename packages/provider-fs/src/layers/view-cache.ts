import { statSync } from 'node:fs';

/** How long a view no read used stays mounted. */
export const VIEW_IDLE_MS = 10_000;

interface CachedView {
  view: Promise<{ path: string; dev: number }>;
  users: number;
  timer?: NodeJS.Timeout;
}

/**
 * Read-only views of chains of layers, kept mounted between reads: a mount and an unmount are
 * a process each (tens of ms), so reading files of a checkpoint one by one (read-file by
 * `checkpoint_id`) mounted its chain every time. A view unused for `idleMs` is unmounted, and
 * `dropAll` unmounts every one (before layers are collected). A view found unmounted meanwhile
 * (its path no longer on the view's file system) is mounted again.
 */
export class ViewCache {
  readonly #views = new Map<string, CachedView>();

  constructor(
    private readonly mount: (top: string) => Promise<string>,
    private readonly unmount: (view: string) => Promise<void>,
    private readonly idleMs = VIEW_IDLE_MS,
  ) {}

  /** Runs `read` on a mounted view of the chain topped by `top`. */
  async use<T>(top: string, read: (root: string) => Promise<T>): Promise<T> {
    let cached = this.#views.get(top);
    if (cached && !(await this.#stillMounted(cached))) {
      this.#views.delete(top);
      cached = undefined;
    }
    if (!cached) {
      const view = this.mount(top).then((path) => ({ path, dev: statSync(path).dev }));
      cached = { view, users: 0 };
      this.#views.set(top, cached);
      view.catch(() => this.#views.get(top) === cached && this.#views.delete(top));
    }
    const entry = cached;
    entry.users += 1;
    clearTimeout(entry.timer);
    try {
      return await read((await entry.view).path);
    } finally {
      entry.users -= 1;
      if (entry.users === 0 && this.#views.get(top) === entry) entry.timer = setTimeout(() => void this.#drop(top, entry), this.idleMs).unref();
    }
  }

  /** Unmounts every view no read is using (all, when none runs: the store is held exclusively). */
  async dropAll(): Promise<void> {
    for (const [top, entry] of [...this.#views]) if (entry.users === 0) await this.#drop(top, entry);
  }

  async #drop(top: string, entry: CachedView): Promise<void> {
    if (entry.users > 0 || this.#views.get(top) !== entry) return;
    this.#views.delete(top);
    clearTimeout(entry.timer);
    const view = await entry.view.catch(() => null);
    if (view) await this.unmount(view.path).catch(() => undefined);
  }

  async #stillMounted(entry: CachedView): Promise<boolean> {
    const view = await entry.view.catch(() => null);
    if (!view) return false;
    try {
      return statSync(view.path).dev === view.dev;
    } catch {
      return false;
    }
  }
}
