import { StoreSchemaError } from '@runtimectl/core';

/**
 * The database was written by a newer runtimectl: its schema version is above the newest this
 * code understands. Raised at open, before anything is read or written, so the file is left
 * untouched; upgrade runtimectl (or point it at another state directory). Never retried.
 */
export class SchemaVersionTooNewError extends StoreSchemaError {
  constructor(
    readonly path: string,
    readonly databaseVersion: number,
    readonly supportedVersion: number,
  ) {
    super(
      `the runtimectl database ${path} has schema version ${databaseVersion}, but this runtimectl understands ` +
        `versions up to ${supportedVersion}: it was written by a newer runtimectl. Upgrade runtimectl to open it; ` +
        'the file was not changed',
      { databaseVersion, supportedVersion },
    );
  }
}

/** The file is an SQLite database, but not a runtimectl store: it is refused and left untouched. */
export class NotARuntimectlStoreError extends StoreSchemaError {
  constructor(
    readonly path: string,
    reason: string,
  ) {
    super(`${path} is not a runtimectl store (${reason}); refusing to open it`, { reason });
  }
}
