import type { WebhookAttemptOutcome } from '@runtimectl/core';
import { Counter, Gauge, type Registry } from 'prom-client';

/** Each webhook's pending events (the webhooks engine's `pendingEvents`), read at scrape time. */
export type WebhookBacklogSource = () => Promise<Record<string, number>>;

/**
 * The webhook metrics of a telemetry's registry: delivery attempts by webhook and outcome, and a
 * gauge of each webhook's pending events read from `source()` at scrape time (no samples while
 * no source is watched or the store cannot be read).
 */
export function webhookMetrics(registry: Registry, prefix: string, source: () => WebhookBacklogSource | undefined) {
  const registers = [registry];
  const attempts = new Counter({
    name: `${prefix}webhook_deliveries_total`,
    help: 'Webhook delivery attempts by webhook and outcome: delivered, failed_attempt (to be retried), gave_up (no attempt left: the event is passed over).',
    labelNames: ['webhook', 'outcome'],
    registers,
  });
  new Gauge({
    name: `${prefix}webhook_pending_events`,
    help: 'Events of the log after each webhook\'s cursor (not yet delivered nor passed over), read from the store at scrape time.',
    labelNames: ['webhook'],
    registers,
    async collect() {
      const backlog = source();
      if (!backlog) return;
      const pending = await backlog().catch(() => undefined);
      this.reset();
      for (const [webhook, count] of Object.entries(pending ?? {})) this.set({ webhook }, count);
    },
  });
  return { recordAttempt: (webhook: string, outcome: WebhookAttemptOutcome) => attempts.inc({ webhook, outcome }) };
}
