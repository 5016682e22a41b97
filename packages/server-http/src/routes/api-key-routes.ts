import {
  ApiKeyCreateRequestSchema,
  ApiKeyCreateResultSchema,
  ApiKeyExistsError,
  ApiKeyListResultSchema,
  ApiKeyNameSchema,
  ApiKeyNotFoundError,
  ApiKeyRevokeResultSchema,
  InvalidRequestError,
  newApiKeyToken,
  tokenSha256,
  type ApiKeyStore,
} from '@runtimectl/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ApiKeyVerifier, AuthOptions } from '../auth/api-keys';
import { viewOfStoredKey, viewsOfConfiguredKeys } from '../auth/api-key-views';
import '../route-config';
import { ADMIN_ROUTE, ERROR_RESPONSES } from './route-options';

const KeyNameParamsSchema = z.strictObject({ name: ApiKeyNameSchema });

/** Creating or revoking needs auth on and a store to keep keys in. */
function storeOf(auth: AuthOptions | undefined): ApiKeyStore {
  if (!auth) throw new InvalidRequestError('this daemon runs without auth (http.auth): no key would ever be checked, so none can be created or revoked');
  if (!auth.store) throw new InvalidRequestError('this server keeps no keys: it was built without a key store (auth.store)');
  return auth.store;
}

/**
 * `/keys`: the API keys, for `admin` keys only. `GET` lists the configured ones (the bearer token
 * and `[[http.auth.keys]]`) and the stored ones; `POST` creates a stored key and answers its
 * token once (the store keeps only its SHA-256); `DELETE /keys/{name}` revokes a stored key: from
 * the next request on, on every node, it is refused. POST ignores `Idempotency-Key` on purpose:
 * a kept response would keep the token.
 */
export const apiKeyRoutes: FastifyPluginAsyncZod<{ auth: AuthOptions | undefined; verifier: ApiKeyVerifier | undefined }> = async (app, options) => {
  const { auth, verifier } = options;

  app.get(
    '/keys',
    {
      config: ADMIN_ROUTE,
      schema: {
        summary: 'The API keys: configured (the bearer token, `[[http.auth.keys]]`) and stored (`POST /keys`)',
        description: 'Never a token nor its hash. Without auth: an empty list.',
        tags: ['keys'],
        operationId: 'listApiKeys',
        response: { 200: ApiKeyListResultSchema, ...ERROR_RESPONSES },
      },
    },
    async () => {
      if (!auth) return { keys: [] };
      const stored = auth.store ? await auth.store.listApiKeys() : [];
      return { keys: [...viewsOfConfiguredKeys(auth), ...stored.map(viewOfStoredKey)] };
    },
  );

  app.post(
    '/keys',
    {
      config: ADMIN_ROUTE,
      schema: {
        summary: 'Creates a stored API key and answers its token, this once',
        description:
          'The daemon makes the token (`rtk_` and 256 random bits) and keeps only its SHA-256; the key works on every node from now on. `scopes`: `read`, `exec`, `checkpoint`, `admin`; `runtimes` / `conversations` limit it to those runtimes and their checkouts and forks, `opened_runtimes` to the runtimes it opens and theirs (any of these: not with `admin`). 409 `api_key_exists` when the name is taken. `Idempotency-Key` is ignored: a kept response would keep the token.',
        tags: ['keys'],
        operationId: 'createApiKey',
        body: ApiKeyCreateRequestSchema,
        response: { 201: ApiKeyCreateResultSchema, ...ERROR_RESPONSES },
      },
    },
    async (request, reply) => {
      const store = storeOf(auth);
      const body = request.body;
      const now = Date.now();
      if (body.expires_at_ms !== undefined && body.expires_at_ms <= now) throw new InvalidRequestError('expires_at_ms has passed: give a time in the future (epoch ms)');
      if (verifier?.configuredNames().has(body.name)) throw new ApiKeyExistsError(body.name);
      const token = newApiKeyToken();
      const key = {
        name: body.name,
        tokenSha256: tokenSha256(token),
        scopes: [...new Set(body.scopes)],
        expiresAtMs: body.expires_at_ms ?? null,
        runtimes: body.runtimes ?? null,
        conversations: body.conversations ?? null,
        openedRuntimes: body.opened_runtimes ?? false,
        createdAtMs: now,
      };
      if (!(await store.createApiKey(key))) throw new ApiKeyExistsError(body.name);
      request.log.info({ key: key.name, scopes: key.scopes }, 'API key created');
      return reply.code(201).send({ key: viewOfStoredKey(key), token });
    },
  );

  app.delete(
    '/keys/:name',
    {
      config: ADMIN_ROUTE,
      schema: {
        summary: 'Revokes a stored API key: every node refuses it from the next request on',
        description: 'A key from the configuration is not stored (404 `api_key_not_found`): edit the configuration to revoke it.',
        tags: ['keys'],
        operationId: 'revokeApiKey',
        params: KeyNameParamsSchema,
        response: { 200: ApiKeyRevokeResultSchema, ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const { name } = request.params;
      if (!(await storeOf(auth).deleteApiKey(name))) throw new ApiKeyNotFoundError(name);
      request.log.info({ key: name }, 'API key revoked');
      return { revoked: true as const, name };
    },
  );
};
