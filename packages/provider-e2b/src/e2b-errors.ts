import {
  BackendGoneError,
  InvalidRequestError,
  PathNotFoundError,
  ProviderCapacityError,
  ProviderError,
  ProviderTimeoutError,
  RuntimectlError,
} from '@runtimectl/core';
import {
  AuthenticationError,
  CommandExitError,
  FileNotFoundError,
  InvalidArgumentError,
  NotEnoughSpaceError,
  RateLimitError,
  SandboxError,
  SandboxNotFoundError,
  ServiceBusyError,
  TimeoutError,
} from 'e2b';

export const PROVIDER_ID = 'e2b';

/** What a failed call was about, so its error can name it. */
export interface ErrorContext {
  /** Core's name of the call: `create`, `read_bytes`, `exec` … */
  call: string;
  /** The workspace path the caller gave (file calls): a missing file becomes `PathNotFoundError(path)`. */
  path?: string;
  sandboxId?: string;
}

/** The message every "sandbox is gone" error carries. */
export function sandboxGoneMessage(sandboxId: string): string {
  return `E2B sandbox ${sandboxId} is gone: it expired or was killed`;
}

/**
 * The SDK's own "Process exited without a result": the command stream ended before its `end`
 * event. The SDK raises a plain `SandboxError` for it, so only the text tells it apart.
 */
const STREAM_CUT_MESSAGE = 'Process exited without a result';

/** A control-plane request past `requestTimeoutMs` rejects with the platform's DOMException, not the SDK's class. */
function isPlatformTimeout(error: unknown): boolean {
  if (!(error instanceof Error) || error instanceof SandboxError) return false;
  if (error.name === 'TimeoutError' || error.name === 'AbortError') return true;
  const cause = (error as { cause?: unknown }).cause;
  return cause instanceof Error && (cause.name === 'TimeoutError' || cause.name === 'AbortError');
}

/** Errors after which E2B may or may not have done the work (a create or snapshot may exist). */
export function outcomeUnknown(error: unknown): boolean {
  if (isPlatformTimeout(error) || error instanceof TimeoutError || error instanceof ServiceBusyError) return true;
  if (error instanceof SandboxError) return (error.statusCode ?? 0) >= 500;
  return error instanceof TypeError; // fetch failed: the connection broke, maybe after the request arrived
}

/** Whether the error could mean the sandbox itself went away (worth asking the control plane). */
export function mayMeanSandboxGone(error: unknown): boolean {
  if (RuntimectlError.isInstance(error)) return false;
  return !(
    error instanceof FileNotFoundError ||
    error instanceof InvalidArgumentError ||
    error instanceof CommandExitError ||
    error instanceof AuthenticationError ||
    error instanceof RateLimitError ||
    error instanceof ServiceBusyError ||
    error instanceof NotEnoughSpaceError
  );
}

/**
 * Maps what the SDK (or the platform's fetch) threw to core's errors, redacting the API key
 * from every message and cause this provider creates. The SDK's own error is never attached as
 * it is: the cause is a copy with the key removed.
 */
export class E2BErrorMapper {
  constructor(
    private readonly apiKey: string,
    private readonly requestTimeoutMs: number,
  ) {}

  redact(text: string): string {
    return this.apiKey.length >= 4 ? text.split(this.apiKey).join('[redacted]') : text;
  }

  /** A copy of `error` safe to keep as a cause: name, status and redacted text only. */
  cause(error: unknown): Error {
    const source = error instanceof Error ? error : new Error(String(error));
    const copy = new Error(this.redact(source.message));
    copy.name = source.name;
    copy.stack = this.redact(source.stack ?? `${source.name}: ${source.message}`);
    const statusCode = (source as { statusCode?: unknown }).statusCode;
    if (typeof statusCode === 'number') Object.assign(copy, { statusCode });
    return copy;
  }

  map(error: unknown, context: ErrorContext): RuntimectlError {
    if (RuntimectlError.isInstance(error)) return error;
    const { call } = context;
    if (error instanceof AuthenticationError) {
      return new ProviderError(
        PROVIDER_ID,
        call,
        'E2B refused the API key (authentication failed); check the key the e2b provider is configured with',
        this.cause(error),
      );
    }
    if (error instanceof RateLimitError || error instanceof ServiceBusyError) {
      return new ProviderCapacityError(PROVIDER_ID, call, this.redact(error.message));
    }
    if (error instanceof SandboxNotFoundError) {
      return new BackendGoneError(PROVIDER_ID, call, sandboxGoneMessage(context.sandboxId ?? 'of this backend'), this.cause(error));
    }
    if (context.path !== undefined && error instanceof FileNotFoundError) return new PathNotFoundError(context.path);
    if (context.path !== undefined && error instanceof InvalidArgumentError) {
      return new InvalidRequestError(`${call} ${context.path}: ${this.redact(error.message)}`, { path: context.path });
    }
    if (isPlatformTimeout(error) || error instanceof TimeoutError) {
      return new ProviderTimeoutError(PROVIDER_ID, call, this.requestTimeoutMs);
    }
    if (error instanceof SandboxError && error.message === STREAM_CUT_MESSAGE) {
      return new ProviderError(PROVIDER_ID, call, `the command stream ended before the command finished (${STREAM_CUT_MESSAGE})`, this.cause(error));
    }
    const message = error instanceof Error ? error.message : String(error);
    return new ProviderError(PROVIDER_ID, call, this.redact(message) || 'unknown error', this.cause(error));
  }
}
