import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { createJsonSchemaTransform, createJsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { READ_ROUTE } from '../routes/route-options';
import { OPENAPI_METADATA } from './openapi-metadata';

export const OPENAPI_PATH = '/openapi.json';
export const DOCS_PREFIX = '/docs';

/** Keeps the docs page self-contained: no CDN, no external validator badge, no https upgrade on a plain-http daemon. */
const localOnlyCsp = (header: string) =>
  header
    .replace(/\s*upgrade-insecure-requests;?/, '')
    .replace(/\s+validator\.swagger\.io/g, '')
    .replace(/\s+https:/g, '');

/**
 * Registers @fastify/swagger (it must see the API routes, so this runs before they are added),
 * `GET /openapi.json` (OpenAPI 3.1 from core's zod schemas) and the swagger-ui page at `/docs`,
 * served from the npm package.
 */
export async function registerOpenApi(app: FastifyInstance, options: { version: string; authenticated: boolean }): Promise<void> {
  const schemaRegistry = OPENAPI_METADATA;
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'runtimectl runtime API',
        version: options.version,
        description:
          'Checkpoint, check out, pause and resume agent runtimes by id. Every error body is `{error, code, details?}`; see docs/http-api.md for the code → status table.',
      },
      tags: [
        { name: 'service', description: 'Health and providers' },
        { name: 'runtimes', description: 'Open, list, read, update and close runtimes' },
        { name: 'data', description: 'Exec, files, search and export' },
        { name: 'checkpoints', description: 'Checkpoint, checkout, pause, resume, snapshot cleanup' },
      ],
      components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } } },
      ...(options.authenticated ? { security: [{ bearerAuth: [] }] } : {}),
    },
    transform: createJsonSchemaTransform({ schemaRegistry, skipList: [] }),
    transformObject: createJsonSchemaTransformObject({ schemaRegistry }),
  });

  app.get(OPENAPI_PATH, { config: READ_ROUTE, schema: { hide: true } }, async () => app.swagger());

  // The reference pages are the spec's: any key may read them (routes that name no scope need admin).
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith(DOCS_PREFIX)) route.config = { ...route.config, ...READ_ROUTE };
  });
  await app.register(fastifySwaggerUi, {
    routePrefix: DOCS_PREFIX,
    uiConfig: { validatorUrl: null, docExpansion: 'list', deepLinking: true },
    staticCSP: true,
    transformStaticCSP: localOnlyCsp,
  });
}
