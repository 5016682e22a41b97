import { LeaseLostError, type WebhookAttemptOutcome } from '@runtimectl/core';
import { DeliveryLease } from './delivery-lease';
import type { WebhookEngineStore } from './engine-store';
import { WebhookPump, type PumpReport } from './webhook-pump';
import { assertWebhookSettings, type WebhookSettings } from './webhook-settings';

export interface WebhookEngineOptions {
  store: WebhookEngineStore;
  webhooks: readonly WebhookSettings[];
  /** This node's id: the delivery lease's holder (the node's heartbeat renews it too). */
  nodeId: string;
  /** The delivery lease lapses this long after the holder's last pass or heartbeat (the fleet's lease time). */
  leaseMs: number;
  /** Epoch ms: delivery records and signature timestamps. Default Date.now. */
  clock?: () => number;
  /** The wait between attempts; tests inject one that returns at once. Default a timer that `abort` cuts short. */
  sleep?: (ms: number, abort: AbortSignal) => Promise<void>;
  /** In [0, 1): the backoff's jitter. Default Math.random. */
  random?: () => number;
  /** Default Node's global fetch. */
  fetch?: typeof fetch;
  /**
   * Resolves when new events may be there (the service's `eventsAppended`), or after `timeoutMs`.
   * Default: waits `timeoutMs`.
   */
  waitForEvents?: (timeoutMs: number, abort: AbortSignal) => Promise<void>;
  /** The longest wait between passes; a standby node asks for the lease this often. Default 1 s. */
  pollIntervalMs?: number;
  /** Events read per page. Default 100. */
  pageSize?: number;
  /** Told when a pass failed (the store unreachable…): the next pass retries. Never given secrets. */
  onError?: (error: unknown) => void;
  /** Told of each delivery attempt once recorded, by webhook id and outcome (the daemon's /metrics). Must not throw. */
  onAttempt?: (webhookId: string, outcome: WebhookAttemptOutcome) => void;
}

/** What one pass did. `holder: false`: another node delivers. */
export interface PassReport extends PumpReport {
  holder: boolean;
}

function defaultSleep(ms: number, abort: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (abort.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      abort.removeEventListener('abort', done);
      resolve();
    }
    abort.addEventListener('abort', done, { once: true });
  });
}

/**
 * Delivers the event log to the configured webhooks, off the request path: it only reads the
 * log, so a slow or dead receiver never delays an operation. One node of a fleet delivers at a
 * time (the delivery lease); the others stand by and take over, from the stored cursors, when
 * it dies. See the package README for the guarantees.
 */
export class WebhookEngine {
  readonly #options: WebhookEngineOptions;
  readonly #lease: DeliveryLease;
  readonly #pumps: WebhookPump[];
  readonly #pollIntervalMs: number;
  #stopping = new AbortController();
  #abandon = new AbortController();
  #loop: Promise<void> | undefined;
  #passing: Promise<PassReport> | undefined;

  constructor(options: WebhookEngineOptions) {
    assertWebhookSettings(options.webhooks);
    this.#options = options;
    this.#pollIntervalMs = options.pollIntervalMs ?? 1_000;
    const sleep = options.sleep ?? defaultSleep;
    this.#lease = new DeliveryLease(options.store, options.nodeId, options.leaseMs);
    const env = {
      store: options.store,
      clock: options.clock ?? Date.now,
      sleep,
      random: options.random ?? Math.random,
      fetch: options.fetch ?? fetch,
      pageSize: options.pageSize ?? 100,
      onAttempt: options.onAttempt,
    };
    this.#pumps = options.webhooks.map((webhook) => new WebhookPump(webhook, env));
  }

  /**
   * One pass: takes or keeps the delivery lease and, holding it, delivers every webhook's pending
   * events (webhooks side by side, each in order). A webhook's pass never overlaps another of the
   * same webhook: a call while one runs joins it.
   */
  runOnce(): Promise<PassReport> {
    this.#passing ??= this.#pass(this.#pumps).finally(() => (this.#passing = undefined));
    return this.#passing;
  }

  async #pass(pumps: readonly WebhookPump[]): Promise<PassReport> {
    if (pumps.length === 0) return { holder: false, delivered: 0, failed: 0 };
    const fence = await this.#lease.hold();
    if (!fence) return { holder: false, delivered: 0, failed: 0 };
    const signals = { stopping: this.#stopping.signal, abandon: this.#abandon.signal };
    const reports = await Promise.allSettled(pumps.map((pump) => pump.pass(fence, signals)));
    const failure = reports.find((report): report is PromiseRejectedResult => report.status === 'rejected');
    if (failure && LeaseLostError.isInstance(failure.reason)) this.#lease.lost(fence);
    else if (failure) throw failure.reason;
    const done = reports.flatMap((report) => (report.status === 'fulfilled' ? [report.value] : []));
    return { holder: true, delivered: done.reduce((sum, r) => sum + r.delivered, 0), failed: done.reduce((sum, r) => sum + r.failed, 0) };
  }

  /**
   * Per webhook id, how many events of the log lie after its cursor: not yet delivered nor passed
   * over (for a webhook filtering by type or runtime, an upper bound: the ones it skips count
   * until its next pass). 0 before a webhook's first pass (it starts at the end of the log).
   */
  async pendingEvents(): Promise<Record<string, number>> {
    const [last, cursors] = await Promise.all([this.#options.store.lastEventId(), this.#options.store.listWebhookCursors()]);
    const after = new Map(cursors.map((cursor) => [cursor.webhookId, cursor.afterEventId]));
    return Object.fromEntries(this.#options.webhooks.map((webhook) => [webhook.id, Math.max(0, last - (after.get(webhook.id) ?? last))]));
  }

  /**
   * Starts delivering in the background, one loop per webhook (a webhook waiting out its backoff
   * holds up no other): after each pass a loop waits for new events (or the poll interval). Idempotent.
   */
  start(): void {
    if (this.#loop || this.#pumps.length === 0) return;
    if (this.#stopping.signal.aborted) {
      this.#stopping = new AbortController();
      this.#abandon = new AbortController();
    }
    const stopping = this.#stopping.signal;
    const wait = this.#options.waitForEvents ?? ((ms: number, abort: AbortSignal) => defaultSleep(ms, abort));
    const loop = async (pump: WebhookPump) => {
      while (!stopping.aborted) {
        await this.#pass([pump]).catch((error: unknown) => this.#options.onError?.(error));
        if (!stopping.aborted) await wait(this.#pollIntervalMs, stopping);
      }
    };
    this.#loop = Promise.all(this.#pumps.map(loop)).then(() => undefined);
  }

  /**
   * Stops: no new attempt starts; an attempt in flight may finish for up to `drainMs`, then it
   * is abandoned unrecorded (the next holder sends that event again). Gives the lease up so
   * another node takes over at once.
   */
  async stop(drainMs = 5_000): Promise<void> {
    const loop = this.#loop;
    this.#loop = undefined;
    const drained = Promise.allSettled([loop, this.#passing]).then(() => undefined);
    // Waits (backoff, the next pass) end now; attempts in flight get `drainMs`.
    this.#stopping.abort();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([drained, new Promise<void>((resolve) => (timer = setTimeout(resolve, drainMs)))]).finally(() => clearTimeout(timer));
    this.#abandon.abort();
    await drained;
    await this.#lease.release().catch(() => undefined);
  }
}
