import { toEventView, type NewWebhookDelivery, type WebhookAttemptOutcome, type RuntimeEvent, type RuntimeFence, type WebhookCursor } from '@runtimectl/core';
import type { WebhookEngineStore } from './engine-store';
import { backoffDelayMs } from './retry-backoff';
import { sendEvent, type AttemptResult } from './send-event';
import type { WebhookSettings } from './webhook-settings';

/** What a pump is given by the engine: time, randomness and the network, all injectable. */
export interface PumpEnvironment {
  store: WebhookEngineStore;
  clock: () => number;
  /** Waits `ms`, or less when `abort` fires. */
  sleep: (ms: number, abort: AbortSignal) => Promise<void>;
  random: () => number;
  fetch: typeof fetch;
  /** Events read per page. */
  pageSize: number;
  /** Told of each recorded attempt (metrics). Must not throw. */
  onAttempt?: ((webhookId: string, outcome: WebhookAttemptOutcome) => void) | undefined;
}

/** How the engine ends a pass: `stopping` lets an attempt in flight finish, `abandon` cuts it off (unrecorded). */
export interface PassSignals {
  stopping: AbortSignal;
  abandon: AbortSignal;
}

/** What one pass did for one webhook. */
export interface PumpReport {
  delivered: number;
  failed: number;
}

const emptyCursor = (webhookId: string, afterEventId: number): WebhookCursor => ({
  webhookId,
  afterEventId,
  lastSuccessAtMs: null,
  lastFailureAtMs: null,
  failing: false,
});

/**
 * Delivers one webhook's pending events, oldest first, one at a time (a receiver sees its events
 * in order), until none is left or the engine stops. Per event: attempts until a 2xx or
 * `maxAttempts`, each recorded in the delivery log, waiting the jittered backoff between them; the
 * cursor moves past the event only with its final record (at-least-once). Every write is fenced
 * by the delivery lease: when it is lost the pass ends (LeaseLostError) and the new holder
 * resumes from the cursor.
 */
export class WebhookPump {
  /** The pass in flight: a second caller joins it (two passes of one webhook would send its events twice). */
  #passing: Promise<PumpReport> | undefined;

  constructor(
    private readonly webhook: WebhookSettings,
    private readonly env: PumpEnvironment,
  ) {}

  pass(fence: RuntimeFence, signals: PassSignals): Promise<PumpReport> {
    this.#passing ??= this.#pass(fence, signals).finally(() => (this.#passing = undefined));
    return this.#passing;
  }

  async #pass(fence: RuntimeFence, signals: PassSignals): Promise<PumpReport> {
    const { store, pageSize } = this.env;
    const report: PumpReport = { delivered: 0, failed: 0 };
    let cursor = await this.#cursor(fence);
    // Where the stored cursor stands: events passed over move `cursor` ahead of it.
    let stored = cursor.afterEventId;
    while (!signals.stopping.aborted) {
      // Read first: every event up to `last` is visible by the time the page is read (ids become visible in order).
      const last = await store.lastEventId();
      const page = await store.listEvents({
        afterEventId: cursor.afterEventId,
        limit: pageSize,
        ...(this.webhook.eventTypes ? { types: this.webhook.eventTypes } : {}),
        ...(this.webhook.runtimeId ? { runtimeId: this.webhook.runtimeId } : {}),
      });
      for (const event of page) {
        if (this.webhook.visible && !(await this.webhook.visible(event))) {
          // Not for this receiver (beyond its key's reach): passed over, as a filtered-out event is.
          cursor = { ...cursor, afterEventId: event.eventId };
          continue;
        }
        const next = await this.#deliver(event, cursor, fence, signals);
        if (!next) return report;
        if (next.failing) report.failed += 1;
        else report.delivered += 1;
        cursor = next;
        stored = next.afterEventId;
      }
      if (page.length < pageSize) {
        // Nothing else matches up to `last`: the filtered-out and passed-over events are done with too.
        if (last > stored) {
          cursor = { ...cursor, afterEventId: Math.max(last, cursor.afterEventId) };
          await store.recordWebhookProgress({ cursor, fences: [fence] });
        }
        return report;
      }
    }
    return report;
  }

  /** The stored cursor; a webhook seen for the first time starts at the end of the log (it gets what happens from now on). */
  async #cursor(fence: RuntimeFence): Promise<WebhookCursor> {
    const stored = await this.env.store.getWebhookCursor(this.webhook.id);
    if (stored) return stored;
    const cursor = emptyCursor(this.webhook.id, await this.env.store.lastEventId());
    await this.env.store.recordWebhookProgress({ cursor, fences: [fence] });
    return cursor;
  }

  /** Attempts `event` until accepted or out of attempts; the new cursor, or null when the engine stopped first. */
  async #deliver(event: RuntimeEvent, cursor: WebhookCursor, fence: RuntimeFence, signals: PassSignals): Promise<WebhookCursor | null> {
    const { clock, sleep, random, store } = this.env;
    const body = JSON.stringify(toEventView(event));
    let current = cursor;
    for (let attempt = 1; ; attempt += 1) {
      if (signals.stopping.aborted) return null;
      const atMs = clock();
      let result: AttemptResult;
      try {
        result = await sendEvent(
          {
            url: this.webhook.url,
            secret: this.webhook.secret,
            webhookId: this.webhook.id,
            eventId: event.eventId,
            eventType: event.type,
            attempt,
            body,
            timestampSeconds: Math.floor(atMs / 1000),
            timeoutMs: this.webhook.timeoutMs,
            abort: signals.abandon,
          },
          this.env.fetch,
        );
      } catch (error) {
        if (signals.abandon.aborted) return null;
        throw error;
      }
      const endMs = clock();
      const accepted = result.errorCode === null;
      const last = accepted || attempt >= this.webhook.maxAttempts;
      const delivery: NewWebhookDelivery = {
        webhookId: this.webhook.id,
        eventId: event.eventId,
        attempt,
        outcome: accepted ? 'delivered' : last ? 'failed' : 'retrying',
        ...result,
        durationMs: Math.max(0, endMs - atMs),
        atMs,
      };
      current = accepted
        ? { ...current, afterEventId: event.eventId, lastSuccessAtMs: endMs, failing: false }
        : { ...current, afterEventId: last ? event.eventId : current.afterEventId, lastFailureAtMs: endMs, failing: true };
      await store.recordWebhookProgress({ deliveries: [delivery], cursor: current, fences: [fence] });
      this.env.onAttempt?.(this.webhook.id, accepted ? 'delivered' : last ? 'gave_up' : 'failed_attempt');
      if (last) return current;
      await sleep(backoffDelayMs(attempt, this.webhook, random), signals.stopping);
    }
  }
}
