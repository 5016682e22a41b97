import { StoreSchemaError } from '@runtimectl/core';

/**
 * The schema was written by a newer runtimectl: its version is above the newest this code
 * understands. Raised at start, before anything is written; upgrade runtimectl (or point it at
 * another `schema`). Never retried.
 */
export class SchemaVersionTooNewError extends StoreSchemaError {
  constructor(
    readonly schema: string,
    readonly databaseVersion: number,
    readonly supportedVersion: number,
  ) {
    super(
      `the runtimectl schema "${schema}" in PostgreSQL has schema version ${databaseVersion}, but this runtimectl ` +
        `understands versions up to ${supportedVersion}: it was written by a newer runtimectl. Upgrade runtimectl ` +
        'to use it; nothing was changed',
      { databaseVersion, supportedVersion },
    );
  }
}

/** The schema holds tables but is not a runtimectl store: it is refused and left untouched. */
export class NotARuntimectlSchemaError extends StoreSchemaError {
  constructor(
    readonly schema: string,
    reason: string,
  ) {
    super(`the PostgreSQL schema "${schema}" is not a runtimectl store (${reason}); refusing to use it`, { reason });
  }
}
