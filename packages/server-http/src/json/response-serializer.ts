import type { FastifySerializerCompiler } from 'fastify';
import { ResponseSerializationError } from 'fastify-type-provider-zod';
import type { z } from 'zod';

/**
 * Serialises a route's responses with its zod response schema, as fastify-type-provider-zod's
 * `serializerCompiler` does (fields checked, undeclared keys dropped, a mismatch raised as
 * `ResponseSerializationError`), but through `safeParse` instead of `safeEncode`. The wire
 * schemas have no codecs or transforms (test/response-serializer.test.ts walks every route's),
 * so both give the same output, and parsing costs a third of encoding: 2.8 µs against 9.1 µs
 * for a checkpoint result, JSON.stringify included (zod 4.6, Node 20).
 */
export const responseSerializerCompiler: FastifySerializerCompiler<z.ZodType> =
  ({ schema, method, url }) =>
  (data) => {
    const result = schema.safeParse(data);
    if (!result.success) throw new ResponseSerializationError(method, url, { cause: result.error });
    return JSON.stringify(result.data);
  };
