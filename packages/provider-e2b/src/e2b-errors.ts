import {
  BackendGoneError,
  InvalidRequestError,
  PathNotFoundError,
  ProviderCapacityError,
  ProviderError,
  ProviderTimeoutError,
  RuntimectlError,
} from '@runtimectl/provider';
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

/** What a failed call was about, so its error can name it (and its public text leave E2B's ids out). */
export interface ErrorContext {
  /** Core's name of the call: `create`, `read_bytes`, `exec` … */
  call: string;
  /** The workspace path the caller gave (file calls): a missing file becomes `PathNotFoundError(path)`. */
  path?: string;
  sandboxId?: string;
  /** The snapshot the call started from or deleted. */
  snapshotId?: string;
  /** The template a create started from (an operator's or caller's choice, but still E2B's id). */
  templateId?: string;
}

/** Ids shorter than this are not scrubbed from text: a template named `base` would maul `database`. */
const MIN_SCRUBBED_ID_LENGTH = 6;

/** `text` with every occurrence of `id` (when long enough to be an id) replaced by `placeholder`. */
function scrub(text: string, id: string | undefined, placeholder: string): string {
  return id !== undefined && id.length >= MIN_SCRUBBED_ID_LENGTH ? text.split(id).join(placeholder) : text;
}

/** The public message of every "sandbox is gone" error: callers never see E2B's sandbox ids. */
export const SANDBOX_GONE_MESSAGE = 'the E2B sandbox is gone: it expired or was killed';

/**
 * `BackendGoneError` for `sandboxId`. The message is public and names no id; the cause names
 * the sandbox (and wraps E2B's own error, when there is one) for the log.
 */
export function sandboxGoneError(call: string, sandboxId: string, reason = SANDBOX_GONE_MESSAGE, cause?: Error): BackendGoneError {
  const detail = new Error(`E2B sandbox ${sandboxId}: ${reason}`, cause === undefined ? undefined : { cause });
  return new BackendGoneError(PROVIDER_ID, call, reason, detail);
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
 * it is: the cause is a copy with the key removed. Public messages also leave out the sandbox
 * and snapshot ids and the sandbox's workspace path; the cause keeps them, for the log.
 */
export class E2BErrorMapper {
  constructor(
    private readonly apiKey: string,
    private readonly requestTimeoutMs: number,
    private readonly workspaceRoot: string,
  ) {}

  redact(text: string): string {
    return this.apiKey.length >= 4 ? text.split(this.apiKey).join('[redacted]') : text;
  }

  /** `text` fit for a caller: no key, no E2B id of `context`, workspace paths made relative. */
  publicText(text: string, context: ErrorContext): string {
    let result = scrub(this.redact(text), context.sandboxId, '<sandbox id>');
    result = scrub(scrub(result, context.snapshotId, '<snapshot id>'), context.templateId, '<template id>');
    if (this.workspaceRoot !== '/') result = result.split(`${this.workspaceRoot}/`).join('').split(this.workspaceRoot).join('.');
    return result;
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
      return new ProviderCapacityError(PROVIDER_ID, call, this.publicText(error.message, context));
    }
    if (error instanceof SandboxNotFoundError) {
      return sandboxGoneError(call, context.sandboxId ?? '(unknown id)', SANDBOX_GONE_MESSAGE, this.cause(error));
    }
    if (context.path !== undefined && error instanceof FileNotFoundError) return new PathNotFoundError(context.path);
    if (context.path !== undefined && error instanceof InvalidArgumentError) {
      return new InvalidRequestError(`${call} ${context.path}: ${this.publicText(error.message, context)}`, { path: context.path });
    }
    if (isPlatformTimeout(error) || error instanceof TimeoutError) {
      return new ProviderTimeoutError(PROVIDER_ID, call, this.requestTimeoutMs);
    }
    if (error instanceof SandboxError && error.message === STREAM_CUT_MESSAGE) {
      return new ProviderError(PROVIDER_ID, call, `the command stream ended before the command finished (${STREAM_CUT_MESSAGE})`, this.cause(error));
    }
    const message = error instanceof Error ? error.message : String(error);
    return new ProviderError(PROVIDER_ID, call, this.publicText(message, context) || 'unknown error', this.cause(error));
  }
}
