import { CheckpointDiffRequestSchema, JsonValueSchema, RuntimeReadFileRequestSchema, RuntimeSearchRequestSchema } from '@runtimectl/core';
import { z } from 'zod';

/** What the OpenAPI document says of a schema beyond what its zod shape shows (a type: the registry wants an index signature). */
export type OpenApiMetadata = {
  /** A component name: recursive schemas need one to be referenced. */
  id?: string;
  description?: string;
  /** JSON Schema's `oneOf`, for what a zod refinement checks and a JSON schema cannot see. */
  oneOf?: Array<{ required: string[] }>;
};

/**
 * The metadata the OpenAPI transform reads (fastify-type-provider-zod reads a registry of ours,
 * not zod's global one, which leaves core's schema objects untouched).
 */
export const OPENAPI_METADATA = z.registry<OpenApiMetadata>();

/** Adds `metadata` to `schema` for the OpenAPI document and returns the schema, for use in place. */
export function documented<T extends z.ZodType>(schema: T, metadata: OpenApiMetadata): T {
  OPENAPI_METADATA.add(schema, metadata);
  return schema;
}

/** A body whose refinement takes exactly one of two fields. */
const exactlyOneOf = (first: string, second: string): OpenApiMetadata => ({
  description: `exactly one of ${first} and ${second}`,
  oneOf: [{ required: [first] }, { required: [second] }],
});

documented(JsonValueSchema, { id: 'JsonValue' });
documented(RuntimeReadFileRequestSchema, exactlyOneOf('runtime_id', 'checkpoint_id'));
documented(CheckpointDiffRequestSchema, exactlyOneOf('to_checkpoint_id', 'to_runtime_id'));
documented(RuntimeSearchRequestSchema, exactlyOneOf('glob', 'grep'));
