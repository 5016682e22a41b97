import type { RuntimeRecord } from '../api/api-types';

/**
 * The runtimes of one lineage: the root and those whose parent chain reaches it. Chains are
 * walked once each (memoised), and a broken or cyclic chain simply does not reach the root.
 */
export function runtimesOfTree(runtimes: RuntimeRecord[], rootRuntimeId: string): RuntimeRecord[] {
  const parentOf = new Map(runtimes.map((runtime) => [runtime.runtime_id, runtime.parent_runtime_id ?? null]));
  const reaches = new Map<string, boolean>([[rootRuntimeId, true]]);
  function reachesRoot(runtimeId: string): boolean {
    const path: string[] = [];
    let current: string | null = runtimeId;
    let answer = false;
    while (current !== null) {
      const known = reaches.get(current);
      if (known !== undefined) {
        answer = known;
        break;
      }
      if (path.includes(current)) break;
      path.push(current);
      current = parentOf.get(current) ?? null;
    }
    for (const visited of path) reaches.set(visited, answer);
    return answer;
  }
  return runtimes.filter((runtime) => reachesRoot(runtime.runtime_id));
}
