import { copyFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { KnownHashes } from '@runtimectl/provider-local';
import { SealedIndexWriter, StatIndex } from '../stat-index';
import type { LayerStore } from './layer-store';

/**
 * The stat index each sealed layer keeps of its own files (`layers/<id>/index.json`): written
 * as the layer is sealed, so its cost follows the change, and read by every workspace mounted on
 * a chain through the layer, so a checkout copies no index.
 */
export class LayerIndexes {
  constructor(private readonly layers: LayerStore) {}

  /** The writer of layer `top`'s index: its files, recorded as its delta hashes them. */
  writer(top: string): SealedIndexWriter {
    return new SealedIndexWriter(this.#pathOf(top));
  }

  /** Keeps the stat index of a whole walk of the workspace layer `top` was sealed from as that layer's (a copy). */
  async keep(top: string, indexPath: string): Promise<void> {
    await copyFile(indexPath, this.#pathOf(top)).catch(() => undefined);
  }

  /**
   * The file hashes a walk of a workspace mounted on `chain` may trust without reading the
   * files: those its own index (`own`) knows, else those of the chain's layers — a file of a
   * sealed layer seen through the mount keeps the stat it had when sealed (a copy up changes its
   * ctime), so a match is that very file.
   */
  async knownHashes(chain: readonly string[], own: KnownHashes): Promise<KnownHashes> {
    const layers = await Promise.all(chain.map((id) => StatIndex.load(this.#pathOf(id))));
    return {
      known: (path, info) => {
        const hash = own.known(path, info);
        if (hash !== null) return hash;
        for (const index of layers) {
          const sealed = index.known(path, info);
          if (sealed !== null) return sealed;
        }
        return null;
      },
    };
  }

  #pathOf(id: string): string {
    return join(dirname(this.layers.absoluteRootOf(id)), 'index.json');
  }
}
