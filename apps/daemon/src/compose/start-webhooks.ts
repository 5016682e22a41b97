import type { RuntimeService, RuntimeStore } from '@runtimectl/core';
import { keyVisibility, type ServerTelemetry } from '@runtimectl/server-http';
import { WebhookEngine } from '@runtimectl/webhooks';
import type { Logger } from 'pino';
import type { ResolvedConfig } from '../config/load-config';

/** How long shutdown lets a webhook request in flight finish before abandoning it (it is sent again after the restart). */
const WEBHOOK_DRAIN_MS = 5_000;

/** Why a delivery pass failed, as logged: a stable code, never a message (it could name a URL). */
function codeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : 'internal';
}

/**
 * Starts delivering the event log to `[[webhooks]]` (nothing when there are none). It runs off
 * the request path, wakes when this node commits events, and delivers on one node of a fleet at a
 * time. `stop` drains within min(5 s, http.shutdown_timeout_ms). `/metrics` counts its attempts
 * and shows each webhook's pending events.
 */
export function startWebhooks(config: ResolvedConfig, store: RuntimeStore, service: RuntimeService, nodeId: string, logger: Logger, telemetry: ServerTelemetry) {
  const keys = new Map(config.apiKeys.map((key) => [key.name, key]));
  // A webhook bound to a key sends only what that key may see (GET /events would show it).
  const webhooks = config.webhookSettings.map((webhook) => (webhook.key === undefined ? webhook : { ...webhook, visible: keyVisibility(keys.get(webhook.key)!, service) }));
  const engine = new WebhookEngine({
    store,
    webhooks,
    nodeId,
    leaseMs: config.fleet.lease_ms,
    waitForEvents: (timeoutMs, abort) => service.eventsAppended(timeoutMs, abort),
    onError: (error) => logger.warn({ code: codeOf(error) }, 'webhook delivery pass failed; the next pass retries'),
    onAttempt: (webhookId, outcome) => telemetry.recordWebhookAttempt(webhookId, outcome),
  });
  if (config.webhookSettings.length > 0) telemetry.watchWebhooks(() => engine.pendingEvents());
  engine.start();
  return { stop: () => engine.stop(Math.min(WEBHOOK_DRAIN_MS, config.http.shutdown_timeout_ms)) };
}
