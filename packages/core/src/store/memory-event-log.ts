import type { EventQuery, NewRuntimeEvent, RuntimeEvent } from './event-log';

/** The memory store's event log: an array in id order (ids are positions in time, not indexes). */
export class MemoryEventLog {
  #events: RuntimeEvent[] = [];
  #lastEventId = 0;

  get lastEventId(): number {
    return this.#lastEventId;
  }

  /** Appends already-copied (frozen) events; the caller has validated the whole batch first. */
  append(events: readonly NewRuntimeEvent[]): void {
    for (const event of events) {
      this.#lastEventId += 1;
      // Field by field: a spread of a frozen event takes V8's slow path, property by property.
      const { type, atMs, runtimeId, checkpointId, data } = event;
      this.#events.push(Object.freeze({ eventId: this.#lastEventId, type, atMs, runtimeId, checkpointId, data }));
    }
  }

  list(query: EventQuery): RuntimeEvent[] {
    const types = query.types ? new Set<string>(query.types) : undefined;
    const result: RuntimeEvent[] = [];
    for (let index = this.#firstAfter(query.afterEventId); index < this.#events.length && result.length < query.limit; index += 1) {
      const event = this.#events[index]!;
      if (query.runtimeId !== undefined && event.runtimeId !== query.runtimeId) continue;
      if (types && !types.has(event.type)) continue;
      result.push(event);
    }
    return result;
  }

  prune(beforeMs: number): number {
    const kept = this.#events.filter((event) => event.atMs >= beforeMs);
    const removed = this.#events.length - kept.length;
    this.#events = kept;
    return removed;
  }

  /** The index of the first event with an id above `eventId` (binary search: ids ascend). */
  #firstAfter(eventId: number): number {
    let low = 0;
    let high = this.#events.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.#events[middle]!.eventId <= eventId) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}
