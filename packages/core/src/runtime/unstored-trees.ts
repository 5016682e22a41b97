import type { TreeReader } from '../manifest/diff-trees';
import type { TreeObject } from '../manifest/tree-object';
import type { RuntimeStore } from '../store/runtime-store';

/**
 * A tree reader over trees built now and never stored (a live or restored workspace's) that
 * falls back to the store for the rest (a checkpoint's): what a diff against a workspace reads.
 */
export function unstoredTreesFirst(store: Pick<RuntimeStore, 'getTreeObjects'>, objects: readonly TreeObject[]): TreeReader {
  const unstored = new Map(objects.map(({ hash, body }) => [hash, body]));
  return async (hashes) => {
    const found = await store.getTreeObjects(hashes.filter((hash) => !unstored.has(hash)));
    for (const hash of hashes) if (unstored.has(hash)) found.set(hash, unstored.get(hash)!);
    return found;
  };
}
