import type { RuntimeRecord } from '../api/api-types';

/** The runtimes view's filters; an empty string means "Any". */
export interface RuntimeFilters {
  search: string;
  status: string;
  provider: string;
  node: string;
  conversation: string;
}

export const NO_FILTERS: RuntimeFilters = { search: '', status: '', provider: '', node: '', conversation: '' };

export function filterRuntimes(runtimes: RuntimeRecord[], filters: RuntimeFilters): RuntimeRecord[] {
  const search = filters.search.trim().toLowerCase();
  const conversation = filters.conversation.trim().toLowerCase();
  return runtimes.filter((runtime) => {
    if (filters.status && runtime.status !== filters.status) return false;
    if (filters.provider && (runtime.provider ?? '') !== filters.provider) return false;
    if (filters.node && (runtime.home_node_id ?? '') !== filters.node) return false;
    if (conversation && !runtime.conversation_id.toLowerCase().includes(conversation)) return false;
    if (!search) return true;
    return [runtime.runtime_id, runtime.conversation_id, runtime.sender_id].some((value) => value.toLowerCase().includes(search));
  });
}

/** The distinct non-empty values of a field, sorted: the options of a filter's select. */
export function distinctValues(runtimes: RuntimeRecord[], pick: (runtime: RuntimeRecord) => string | null | undefined): string[] {
  const values = new Set<string>();
  for (const runtime of runtimes) {
    const value = pick(runtime);
    if (value) values.add(value);
  }
  return [...values].sort();
}

/** Puts a fresh record in the list (replacing the old one), keeping the daemon's order by id. */
export function upsertRuntime(runtimes: RuntimeRecord[], record: RuntimeRecord): RuntimeRecord[] {
  const index = runtimes.findIndex((runtime) => runtime.runtime_id === record.runtime_id);
  if (index !== -1) {
    const next = runtimes.slice();
    next[index] = { ...runtimes[index], ...record };
    return next;
  }
  const next = [...runtimes, record];
  next.sort((left, right) => (left.runtime_id < right.runtime_id ? -1 : left.runtime_id > right.runtime_id ? 1 : 0));
  return next;
}
