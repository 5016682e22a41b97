/**
 * A deeply frozen copy of a JSON-shaped store record (plain objects, arrays, strings, numbers,
 * booleans, null) that shares every part already deeply frozen.
 *
 * The memory store keeps records in this form, so a read hands out the stored record itself: no
 * copy per read, and a change a caller attempts throws instead of corrupting the store. The
 * service builds a new record by spreading one it read (`{ ...session, headCheckpointId }`), so
 * committing it copies only the new top-level object: the nested parts (metadata, options, the
 * backend binding) stay shared between a runtime and every checkpoint of it, which also keeps
 * the memory store's heap, and the garbage collector's work, small.
 */
export function immutableCopy<T>(value: T): T {
  if (typeof value !== 'object' || value === null || isDeeplyFrozen(value)) return value;
  if (Array.isArray(value)) return Object.freeze(value.map(immutableCopy)) as T;
  // A spread copies the properties in one step (keyed stores, key by key, cost a map transition
  // each); only the parts not yet frozen are then replaced.
  const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const key in copy) {
    const child = copy[key];
    if (typeof child === 'object' && child !== null) {
      const frozen = immutableCopy(child);
      if (frozen !== child) copy[key] = frozen;
    }
  }
  return Object.freeze(copy) as T;
}

/** true when neither `value` nor anything reachable from it can change. */
export function isDeeplyFrozen(value: object): boolean {
  if (!Object.isFrozen(value)) return false;
  for (const key in value) {
    const child = (value as Record<string, unknown>)[key];
    if (typeof child === 'object' && child !== null && !isDeeplyFrozen(child)) return false;
  }
  return true;
}
