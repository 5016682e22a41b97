import Fastify from 'fastify';
import { RuntimeCheckpointResultSchema } from '@runtimectl/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { responseSerializerCompiler } from '../src/json/response-serializer';
import { createTestServer, type TestServer } from './test-server';

/** Paths (in `where`) of every pipe, transform or codec inside a zod schema. */
function transformsIn(schema: z.ZodType, where = 'schema', seen = new Set<unknown>()): string[] {
  if (seen.has(schema)) return [];
  seen.add(schema);
  const def = (schema as unknown as { _zod: { def: Record<string, unknown> & { type: string } } })._zod.def;
  if (def.type === 'pipe' || def.type === 'transform') return [where];
  const isSchema = (value: unknown): value is z.ZodType => typeof value === 'object' && value !== null && '_zod' in value;
  const found: string[] = [];
  const visit = (value: unknown, path: string) => {
    if (isSchema(value)) found.push(...transformsIn(value, path, seen));
    else if (Array.isArray(value)) value.forEach((item, index) => visit(item, `${path}[${index}]`));
    else if (typeof value === 'object' && value !== null) for (const [key, item] of Object.entries(value)) visit(item, `${path}.${key}`);
  };
  for (const [key, value] of Object.entries(def)) visit(value, `${where}.${key}`);
  if (def.type === 'lazy') visit((def.getter as () => unknown)(), `${where}.lazy`);
  return found;
}

describe('response serialisation with the zod schemas', () => {
  let server: TestServer;
  const responses: Array<{ route: string; status: string; schema: z.ZodType }> = [];

  beforeAll(async () => {
    server = createTestServer();
    server.app.addHook('onRoute', (route) => {
      const response = (route.schema as { response?: Record<string, unknown> } | undefined)?.response ?? {};
      for (const [status, schema] of Object.entries(response)) {
        if (typeof schema === 'object' && schema !== null && '_zod' in schema) {
          responses.push({ route: `${String(route.method)} ${route.url}`, status, schema: schema as z.ZodType });
        }
      }
    });
    await server.app.ready();
  });
  afterAll(() => server.app.close());

  it('no response schema of any route has a codec or transform, so parsing gives what encoding would', () => {
    expect(responses.length).toBeGreaterThan(30);
    const offending = responses.flatMap(({ route, status, schema }) => transformsIn(schema, `${route} ${status}`));
    expect(offending).toStrictEqual([]);
  });

  it('the walk does find a transform or codec when there is one (the check above can fail)', () => {
    expect(transformsIn(z.object({ at: z.string().transform((value) => value.length) }))).toStrictEqual(['schema.shape.at']);
    const codec = z.codec(z.string(), z.number(), { decode: Number, encode: String });
    expect(transformsIn(z.object({ list: z.array(codec) }))).toStrictEqual(['schema.shape.list.element']);
  });

  describe('on a route', () => {
    const app = Fastify();
    // A real checkpoint result, from a real service.
    let result: Record<string, unknown> & { runtime: Record<string, unknown> };
    let answer: unknown;

    beforeAll(async () => {
      await server.service.open({ runtime_id: 'rt-1', conversation_id: 'c', sender_id: 's', metadata: { team: 'a' } });
      result = (await server.service.checkpoint({ runtime_id: 'rt-1', name: 'first' })) as unknown as typeof result;
      app.setSerializerCompiler(responseSerializerCompiler);
      app.get('/checkpoint', { schema: { response: { 200: RuntimeCheckpointResultSchema } } }, async () => answer);
      await app.ready();
    });
    afterAll(() => app.close());

    it('answers exactly what the schema declares, as fastify-type-provider-zod would (encode)', async () => {
      answer = result;
      const response = await app.inject({ method: 'GET', url: '/checkpoint' });
      expect(response.statusCode).toBe(200);
      expect(response.body).toBe(JSON.stringify(z.encode(RuntimeCheckpointResultSchema, result as never)));
      expect(response.json()).toStrictEqual(result);
    });

    it('drops fields the schema does not declare, at every level (nothing internal leaks)', async () => {
      answer = { ...result, internal_token: 'secret', runtime: { ...result.runtime, resource: { sandbox: 'sbx' } } };
      const response = await app.inject({ method: 'GET', url: '/checkpoint' });
      expect(response.statusCode).toBe(200);
      expect(response.body).not.toContain('secret');
      expect(response.body).not.toContain('sbx');
      expect(response.json()).toStrictEqual(result);
    });

    it('refuses a response that does not match the schema instead of sending it', async () => {
      answer = { ...result, created_at_ms: 'yesterday' };
      const response = await app.inject({ method: 'GET', url: '/checkpoint' });
      expect(response.statusCode).toBe(500);
      expect(response.body).not.toContain('yesterday');
    });
  });
});
