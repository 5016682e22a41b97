import { RuntimectlError } from './runtimectl-error';

/**
 * The store cannot be used as it is: a schema newer than this code understands, a file that is
 * not a runtimectl store. The daemon refuses to start with the message; it never reaches HTTP.
 */
export class StoreSchemaError extends RuntimectlError {
  constructor(message: string, details?: Record<string, unknown>) {
    super('internal', message, details === undefined ? {} : { details });
  }
}
