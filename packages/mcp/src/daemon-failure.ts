import { DaemonUnreachableError, RuntimectlApiError } from '@runtimectl/client';

/** What the daemon said when it refused (or could not be reached): its stable code and its message. */
export interface DaemonFailure {
  code: string;
  message: string;
}

/**
 * The daemon's code and message of an error from the client (a refusal, a request the client
 * refused before sending, an unreachable daemon), or undefined for anything else: that is a bug
 * of ours and propagates. Tool errors and resource errors both say this, the same way.
 */
export function daemonFailureOf(error: unknown): DaemonFailure | undefined {
  if (error instanceof RuntimectlApiError) return { code: error.code, message: error.message };
  if (error instanceof DaemonUnreachableError) return { code: 'daemon_unreachable', message: error.message };
  return undefined;
}
