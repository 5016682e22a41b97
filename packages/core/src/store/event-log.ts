/**
 * The durable event log: every lifecycle change, appended in the same commit as the state it
 * describes (so an event is never lost nor told of a change that did not happen), with an id the
 * store assigns. Ids increase in commit order: once a reader has seen id N, no event with an id
 * at or below N can appear later, so "events after N" is a complete, resumable cursor (the
 * SSE stream's Last-Event-ID). Ids are never reused, not even after pruning.
 */

/** What happened. Names are `<subject>.<verb>`; the list grows, readers ignore types they do not know. */
export const RUNTIME_EVENT_TYPES = [
  'runtime.opened',
  'runtime.paused',
  'runtime.resumed',
  'runtime.closed',
  'runtime.failed',
  'checkpoint.created',
  'checkpoint.pinned',
  'checkpoint.unpinned',
  'checkout.created',
  'snapshot.deleted',
  'verification.failed',
  'policy.acted',
] as const;
export type RuntimeEventType = (typeof RUNTIME_EVENT_TYPES)[number];

/** An event as a commit appends it: the store gives it its id. */
export interface NewRuntimeEvent {
  type: RuntimeEventType;
  /** When it happened (the committing node's clock), epoch ms. */
  atMs: number;
  /** The runtime it is about, if any. */
  runtimeId: string | null;
  /** The checkpoint it is about, if any. */
  checkpointId: string | null;
  /** Type-specific facts (JSON): e.g. a deleted snapshot's reason. Never secrets, host paths or provider ids. */
  data: Record<string, unknown>;
}

export interface RuntimeEvent extends NewRuntimeEvent {
  /** Positive, increasing in commit order, never reused. */
  eventId: number;
}

export interface EventQuery {
  /** Events with a greater id only (0: from the oldest kept). */
  afterEventId: number;
  /** At most this many, oldest first. */
  limit: number;
  /** Only events about this runtime. */
  runtimeId?: string;
  /** Only events of these types. */
  types?: RuntimeEventType[];
}

export interface EventStore {
  /** Events after `query.afterEventId`, oldest first, filtered; an empty list when none (yet). */
  listEvents(query: EventQuery): Promise<RuntimeEvent[]>;
  /** The greatest id appended so far (0 when none ever was), pruned or not. */
  lastEventId(): Promise<number>;
  /** Deletes events that happened before `beforeMs`; resolves how many. Ids are not reused. */
  pruneEvents(beforeMs: number): Promise<number>;
}
