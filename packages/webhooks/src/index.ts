export { WebhookEngine, type WebhookEngineOptions, type PassReport } from './webhook-engine';
export type { WebhookEngineStore } from './engine-store';
export { WEBHOOK_DEFAULTS, assertWebhookSettings, type WebhookSettings } from './webhook-settings';
export type { BackoffSettings } from './retry-backoff';
export { SIGNATURE_HEADER, DEFAULT_TOLERANCE_SECONDS, signWebhookBody, verifyWebhookSignature, type SignatureCheck } from './webhook-signature';
export { WEBHOOK_LEASE_ID } from './delivery-lease';
export { createWebhookDirectory } from './webhook-directory';
export { publicWebhookUrl } from './receiver-url';
