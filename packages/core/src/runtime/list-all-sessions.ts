import type { SessionRecord } from '../store/records';
import type { SessionListQuery } from '../store/runtime-store';
import type { ServiceContext } from './service-context';

/** Every runtime matching `filter`, page by page (for start-up work that must see them all). */
export async function listAllSessions(ctx: ServiceContext, filter: Omit<SessionListQuery, 'limit' | 'cursor'>): Promise<SessionRecord[]> {
  const found: SessionRecord[] = [];
  let cursor: string | undefined;
  do {
    const page = await ctx.store.listSessions({ ...filter, limit: 500, ...(cursor ? { cursor } : {}) });
    found.push(...page.items);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return found;
}
