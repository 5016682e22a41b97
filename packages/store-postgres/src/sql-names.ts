/** A schema name the store accepts: a plain lower-case SQL identifier, so it never needs quoting rules. */
export const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export const SCHEMA_NAME_RULE = 'a lower-case SQL identifier (a-z, 0-9, _; at most 63 characters)';

/** Throws, naming `key`, unless `schema` is a plain identifier (`runtimectl`, `team_a`…). */
export function assertSchemaName(schema: string, key = 'schema'): string {
  if (!SCHEMA_NAME.test(schema)) throw new TypeError(`${key} must be ${SCHEMA_NAME_RULE}, got ${JSON.stringify(schema)}`);
  return schema;
}

/** `"schema"`, for SQL text (the name was checked by assertSchemaName). */
export const quoted = (schema: string): string => `"${schema}"`;
