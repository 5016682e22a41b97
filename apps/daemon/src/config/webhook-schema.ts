import { ApiKeyNameSchema, RUNTIME_EVENT_TYPES, RuntimeIdSchema, WebhookIdSchema } from '@runtimectl/core';
import { WEBHOOK_DEFAULTS } from '@runtimectl/webhooks';
import { z } from 'zod';

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** One `[[webhooks]]` table. The secret is given inline or, better, by the variable secret_env names. */
const WebhookSchema = z
  .strictObject({
    id: WebhookIdSchema,
    url: z.url({ protocol: /^https?$/, error: 'an http:// or https:// URL, e.g. https://hooks.example.com/runtimectl' }),
    secret: z.string().min(16, 'at least 16 characters').optional(),
    secret_env: z.string().regex(ENV_NAME, 'an environment variable name').optional(),
    /** Only these event types are sent; default every type. */
    event_types: z.array(z.enum(RUNTIME_EVENT_TYPES)).min(1).optional(),
    /** Only events about this runtime are sent; default every runtime. */
    runtime_id: RuntimeIdSchema.optional(),
    /** Only what this API key (a `[[http.auth.keys]]` name) may see: its runtimes and their branches; nothing once it has expired. */
    key: ApiKeyNameSchema.optional(),
    max_attempts: z.int().min(1).max(100).default(WEBHOOK_DEFAULTS.maxAttempts),
    base_backoff_ms: z.int().min(1).max(86_400_000).default(WEBHOOK_DEFAULTS.baseBackoffMs),
    max_backoff_ms: z.int().min(1).max(86_400_000).default(WEBHOOK_DEFAULTS.maxBackoffMs),
    timeout_ms: z.int().min(100).max(600_000).default(WEBHOOK_DEFAULTS.timeoutMs),
  })
  .refine((webhook) => (webhook.secret === undefined) !== (webhook.secret_env === undefined), {
    message: 'give secret or secret_env, not both (secret_env names the environment variable holding the secret)',
  })
  .refine((webhook) => webhook.base_backoff_ms <= webhook.max_backoff_ms, { path: ['base_backoff_ms'], message: 'must not exceed max_backoff_ms' });

/** `[[webhooks]]`: receivers of the event log, ids unique. */
export const WebhooksSchema = z
  .array(WebhookSchema)
  .default([])
  .superRefine((webhooks, context) => {
    webhooks.forEach((webhook, index) => {
      if (webhooks.findIndex((other) => other.id === webhook.id) < index) {
        context.addIssue({ code: 'custom', path: [index, 'id'], message: `webhook id ${webhook.id} is configured twice` });
      }
    });
  });
