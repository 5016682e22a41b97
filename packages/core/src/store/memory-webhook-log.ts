import type { NewWebhookDelivery, WebhookCursor, WebhookDelivery, WebhookDeliveryQuery } from './webhook-log';

/** The memory store's webhook state: cursors by webhook id and the attempts in id order. */
export class MemoryWebhookLog {
  readonly #cursors = new Map<string, WebhookCursor>();
  #deliveries: WebhookDelivery[] = [];
  #lastDeliveryId = 0;

  cursor(webhookId: string): WebhookCursor | undefined {
    return this.#cursors.get(webhookId);
  }

  cursors(): WebhookCursor[] {
    return [...this.#cursors.values()].sort((a, b) => (a.webhookId < b.webhookId ? -1 : a.webhookId > b.webhookId ? 1 : 0));
  }

  /** Applies already-copied (frozen) records; the caller has validated them first. */
  record(deliveries: readonly NewWebhookDelivery[], cursor: WebhookCursor | undefined): void {
    for (const delivery of deliveries) {
      this.#lastDeliveryId += 1;
      this.#deliveries.push(Object.freeze({ ...delivery, deliveryId: this.#lastDeliveryId }));
    }
    if (cursor) this.#cursors.set(cursor.webhookId, cursor);
  }

  list(query: WebhookDeliveryQuery): WebhookDelivery[] {
    const result: WebhookDelivery[] = [];
    for (let index = this.#deliveries.length - 1; index >= 0 && result.length < query.limit; index -= 1) {
      const delivery = this.#deliveries[index]!;
      if (query.beforeDeliveryId !== undefined && delivery.deliveryId >= query.beforeDeliveryId) continue;
      if (delivery.webhookId === query.webhookId) result.push(delivery);
    }
    return result;
  }

  prune(beforeMs: number): number {
    const kept = this.#deliveries.filter((delivery) => delivery.atMs >= beforeMs);
    const removed = this.#deliveries.length - kept.length;
    this.#deliveries = kept;
    return removed;
  }
}
