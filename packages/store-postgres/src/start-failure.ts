import { StoreSchemaError } from '@runtimectl/core';
import { unavailableReason } from './connection-errors';

/** Where the URL points, without user or password: `host:port/database`. */
export function describeTarget(url: string): string {
  try {
    const parsed = new URL(url);
    const database = parsed.pathname.replace(/^\//, '') || '(default database)';
    return `${parsed.hostname || 'localhost'}:${parsed.port || '5432'}/${decodeURIComponent(database)}`;
  } catch {
    return '(an unparsable URL)';
  }
}

/** SQLSTATEs of a refused login: wrong password or unknown role, no such database, no permission to connect. */
const LOGIN_REFUSED: Record<string, string> = {
  '28P01': 'the password was refused',
  '28000': 'the login was refused (role or pg_hba.conf)',
  '3D000': 'the database does not exist',
  '42501': 'the role may not connect',
};

/**
 * The store could not start: the server is unreachable or refused the login. Its message is
 * one line naming the host, port and database (never the user's password) and what went wrong.
 */
export class StoreStartError extends StoreSchemaError {}

export function describeStartFailure(error: unknown, url: string): StoreStartError {
  const { code } = (error ?? {}) as { code?: unknown };
  const refused = typeof code === 'string' ? LOGIN_REFUSED[code] : undefined;
  const reason = refused ?? unavailableReason(error) ?? 'the connection failed';
  return new StoreStartError(`could not connect to PostgreSQL at ${describeTarget(url)}: ${reason}`);
}
