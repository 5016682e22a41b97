import {
  WebhookDeliveryListQuerySchema,
  WebhookDeliveryListResultSchema,
  WebhookIdSchema,
  WebhookListResultSchema,
  WebhookNotFoundError,
  type WebhookDirectory,
} from '@runtimectl/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import '../route-config';
import { ADMIN_ROUTE, ERROR_RESPONSES } from './route-options';

const WebhookIdParamsSchema = z.strictObject({ webhook_id: WebhookIdSchema });

/** A daemon without webhooks: an empty list, and no id is known. */
const NO_WEBHOOKS: WebhookDirectory = {
  listWebhooks: async () => ({ webhooks: [] }),
  listWebhookDeliveries: async (webhookId) => {
    throw new WebhookNotFoundError(webhookId);
  },
};

/** `GET /webhooks` and `GET /webhooks/{webhook_id}/deliveries`: the configured webhooks and their delivery logs. */
export const webhookRoutes: FastifyPluginAsyncZod<{ webhooks?: WebhookDirectory | undefined }> = async (app, options) => {
  const webhooks = options.webhooks ?? NO_WEBHOOKS;

  app.get(
    '/webhooks',
    {
      config: ADMIN_ROUTE,
      schema: {
        summary: 'The configured webhooks: URL (without credentials or query), filters, cursor, last success and failure, failing',
        description: 'Secrets are never shown. `after_event_id` is the event log cursor: every event up to it was delivered, given up on, or filtered out.',
        tags: ['events'],
        operationId: 'listWebhooks',
        response: { 200: WebhookListResultSchema, ...ERROR_RESPONSES },
      },
    },
    async () => webhooks.listWebhooks(),
  );

  app.get(
    '/webhooks/:webhook_id/deliveries',
    {
      config: ADMIN_ROUTE,
      schema: {
        summary: "A webhook's delivery attempts, newest first",
        description:
          'One entry per attempt: event id, attempt number, outcome (`delivered`, `retrying`, `failed`), status code or error code, duration, time, and at most 256 characters of the response body. At most `limit` (default 100, at most 500) per page; pass `next_cursor` back as `cursor`. Attempts older than the event retention are pruned.',
        tags: ['events'],
        operationId: 'listWebhookDeliveries',
        params: WebhookIdParamsSchema,
        querystring: WebhookDeliveryListQuerySchema,
        response: { 200: WebhookDeliveryListResultSchema, ...ERROR_RESPONSES },
      },
    },
    async (request) => webhooks.listWebhookDeliveries(request.params.webhook_id, request.query),
  );
};
