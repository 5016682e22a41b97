const NONE: readonly string[] = Object.freeze([]);

/** The first position in ascending `ids` whose id is ≥ `id` (`ids.length` when none is). */
export function lowerBound(ids: readonly string[], id: string): number {
  let low = 0;
  let high = ids.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (ids[middle]! < id) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** One key's ids, ascending; removed ids stay in place as tombstones until compaction. */
interface Group {
  ids: string[];
  removed: Set<string>;
}

/**
 * Ids grouped by a key, each group in ascending (code-unit) order without duplicates: the memory
 * store's secondary indexes. Checkpoint ids are time-ordered, so a new one almost always lands
 * at the end of its group (an append), and reads need no sort: cheaper than a Set per key once
 * groups hold thousands of ids (a growing Set rehashes its whole table). Removal leaves a
 * tombstone, compacted once half a group is tombstones, so removing a whole large group (a
 * snapshot shared by many checkpoints being deleted) stays linear.
 */
export class SortedIdIndex {
  readonly #groups = new Map<string, Group>();

  add(key: string, id: string): void {
    let group = this.#groups.get(key);
    if (group === undefined) {
      group = { ids: [], removed: new Set() };
      this.#groups.set(key, group);
    }
    const { ids } = group;
    if (ids.length === 0 || id > ids[ids.length - 1]!) {
      ids.push(id);
      return;
    }
    const at = lowerBound(ids, id);
    if (ids[at] !== id) ids.splice(at, 0, id);
    else group.removed.delete(id);
  }

  remove(key: string, id: string): void {
    const group = this.#groups.get(key);
    if (group === undefined || group.ids[lowerBound(group.ids, id)] !== id) return;
    group.removed.add(id);
    if (group.removed.size * 2 < group.ids.length) return;
    group.ids = group.ids.filter((kept) => !group.removed.has(kept));
    group.removed.clear();
    if (group.ids.length === 0) this.#groups.delete(key);
  }

  /** The group's ids, ascending. May be the index's own array: read it, never change it. */
  get(key: string): readonly string[] {
    const group = this.#groups.get(key);
    if (group === undefined) return NONE;
    return group.removed.size === 0 ? group.ids : group.ids.filter((id) => !group.removed.has(id));
  }
}
