import { HealthResultSchema, ProviderListResultSchema } from '@runtimectl/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import '../route-config';
import { ERROR_RESPONSES, READ_ROUTE, type RouteGroupOptions } from './route-options';

/** `GET /health` (public: liveness probes carry no token) and `GET /providers`. */
export const serviceRoutes: FastifyPluginAsyncZod<RouteGroupOptions & { version: string }> = async (app, options) => {
  const { service, version } = options;

  app.get(
    '/health',
    {
      config: { runtimectl: { public: true } },
      schema: {
        summary: 'Liveness and version; never needs a token',
        tags: ['service'],
        operationId: 'health',
        security: [],
        response: { 200: HealthResultSchema, ...ERROR_RESPONSES },
      },
    },
    async () => ({ status: 'ok' as const, version }),
  );

  app.get(
    '/providers',
    {
      config: READ_ROUTE,
      schema: {
        summary: 'The configured providers and what each can do',
        tags: ['service'],
        operationId: 'listProviders',
        response: { 200: ProviderListResultSchema, ...ERROR_RESPONSES },
      },
    },
    async () => service.providers(),
  );
};
