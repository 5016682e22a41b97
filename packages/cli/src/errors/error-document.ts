import type { DescribedError } from './describe-error';
import { EXIT_CODES } from './exit-codes';

/**
 * What `--json` prints on stdout when a command fails: the API's error body (`error`, `code`,
 * `details`) with the line a person reads as `error`, plus the exit code and the daemon's request id.
 */
export interface ErrorDocument {
  error: string;
  code: string;
  details: Record<string, unknown>;
  exit_code: number;
  request_id?: string;
}

export function errorDocument(described: DescribedError): ErrorDocument {
  return {
    error: described.line,
    code: described.code,
    details: described.details,
    exit_code: described.exitCode,
    ...(described.requestId ? { request_id: described.requestId } : {}),
  };
}

/** A command line commander refused (unknown option, invalid argument): `message` is commander's. */
export function usageErrorDocument(message: string): ErrorDocument {
  return { error: message.replace(/^error: /, ''), code: 'usage', details: {}, exit_code: EXIT_CODES.usage };
}
