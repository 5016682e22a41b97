import { mkdir, mkdtemp, rmdir } from 'node:fs/promises';
import { join } from 'node:path';
import { OWNER_ONLY_DIRECTORY_MODE } from '@runtimectl/provider-local';
import { namesIn } from '../absent-files';
import type { LayerStore } from './layer-store';
import { mountReadOnlyChain, unmount } from './overlay-mount';
import { ViewCache } from './view-cache';

/**
 * Read-only overlay mounts of chains of layers under `<directory>/views/`: a tree as checkouts
 * see it (whiteouts and opaque directories applied by the kernel), read without restoring it.
 */
export class ChainViews {
  /** Views kept mounted for reads by checkpoint (`cached`). */
  readonly #cache = new ViewCache(
    (top) => this.#mount(top),
    (view) => this.#unmount(view),
  );

  constructor(
    private readonly directory: string,
    private readonly layers: LayerStore,
  ) {}

  /** Runs `read` on a read-only mount of the chain topped by layer `top`, then unmounts. */
  async once<T>(top: string, read: (root: string) => Promise<T>): Promise<T> {
    const view = await this.#mount(top);
    try {
      return await read(view);
    } finally {
      await this.#unmount(view);
    }
  }

  /** Runs `read` on a read-only mount of the chain topped by `top`, kept mounted a while for the reads that follow (`ViewCache`). */
  cached<T>(top: string, read: (root: string) => Promise<T>): Promise<T> {
    return this.#cache.use(top, read);
  }

  /** Unmounts every view: those kept for reads, and those a crash left. Before layers are collected. */
  async sweep(): Promise<void> {
    await this.#cache.dropAll();
    for (const view of await namesIn(join(this.directory, 'views'))) await this.#unmount(join(this.directory, 'views', view)).catch(() => undefined);
  }

  /** Mounts the chain topped by layer `top` read-only at a new directory under `views`; resolves it. */
  async #mount(top: string): Promise<string> {
    const chain = await this.layers.chain(top);
    await mkdir(join(this.directory, 'views'), { recursive: true, mode: OWNER_ONLY_DIRECTORY_MODE });
    const view = await mkdtemp(join(this.directory, 'views', 'v-'));
    try {
      await mountReadOnlyChain(this.directory, chain.map((id) => this.layers.rootOf(id)), view);
      return view;
    } catch (error) {
      await rmdir(view).catch(() => undefined);
      throw error;
    }
  }

  async #unmount(view: string): Promise<void> {
    try {
      await unmount(view, { lazy: true });
    } finally {
      await rmdir(view).catch(() => undefined);
    }
  }
}
