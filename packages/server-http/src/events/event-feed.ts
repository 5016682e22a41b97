import type { EventView, RuntimeService } from '@runtimectl/core';

/** Events read from the store per step. */
export const FEED_PAGE = 500;

/**
 * One reader of the event log for every live stream of this server: on each local commit (or
 * poll, for other nodes' events) it reads what is new once and hands it to every subscriber,
 * instead of each stream reading the store on every wake-up (10 streams cost 10 reads an event).
 * It runs while it has subscribers. Subscribers get every event after the point the feed had read
 * when they attached, in id order; they catch up on what came before from the store themselves.
 */
export class EventFeed {
  readonly #subscribers = new Set<(events: readonly EventView[]) => void>();
  readonly #service: RuntimeService;
  readonly #pollIntervalMs: number;
  #abort: AbortController | undefined;
  #cursor: Promise<number> | undefined;

  constructor(service: RuntimeService, pollIntervalMs: number) {
    this.#service = service;
    this.#pollIntervalMs = pollIntervalMs;
  }

  /** Starts delivering to `deliver` (synchronously, in id order); resolves once attached. Call the returned function to stop. */
  async attach(deliver: (events: readonly EventView[]) => void): Promise<() => void> {
    this.#subscribers.add(deliver);
    if (!this.#abort) this.#start();
    await this.#cursor;
    return () => {
      this.#subscribers.delete(deliver);
      if (this.#subscribers.size === 0) this.#stop();
    };
  }

  #start(): void {
    const abort = new AbortController();
    this.#abort = abort;
    // Where the feed starts: the last id committed when the first subscriber came.
    const cursor = this.#service.listEvents({ after: Number.MAX_SAFE_INTEGER, limit: 1 }).then((page) => page.last_event_id);
    this.#cursor = cursor;
    void cursor.then((start) => this.#run(start, abort.signal)).catch(() => this.#failAll(abort));
  }

  #stop(): void {
    this.#abort?.abort();
    this.#abort = undefined;
    this.#cursor = undefined;
  }

  async #run(start: number, signal: AbortSignal): Promise<void> {
    let cursor = start;
    while (!signal.aborted) {
      const page = await this.#service.listEvents({ after: cursor, limit: FEED_PAGE });
      if (signal.aborted) return;
      if (page.events.length > 0) {
        cursor = page.events.at(-1)!.event_id;
        for (const deliver of [...this.#subscribers]) deliver(page.events);
      }
      if (page.events.length === FEED_PAGE) continue;
      await this.#service.eventsAppended(this.#pollIntervalMs, signal);
    }
  }

  /** The store failed: every stream ends (its client reconnects with Last-Event-ID and loses nothing). */
  #failAll(abort: AbortController): void {
    if (this.#abort !== abort) return;
    const subscribers = [...this.#subscribers];
    this.#subscribers.clear();
    this.#stop();
    for (const deliver of subscribers) deliver(FEED_FAILED);
  }
}

/** Handed to subscribers when the feed could not read the log: end the stream. */
export const FEED_FAILED: readonly EventView[] = Object.freeze([]);
