import type { RuntimeStore } from '@runtimectl/core';

/** What the engine needs of the store: the event log, its own state, and leases. */
export type WebhookEngineStore = Pick<
  RuntimeStore,
  | 'listEvents'
  | 'lastEventId'
  | 'getWebhookCursor'
  | 'listWebhookCursors'
  | 'recordWebhookProgress'
  | 'listWebhookDeliveries'
  | 'acquireLease'
  | 'releaseLease'
  | 'renewLeases'
>;
