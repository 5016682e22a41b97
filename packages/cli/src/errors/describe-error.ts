import { ClientTimeoutError, DaemonUnreachableError, RuntimectlApiError } from '@runtimectl/client';
import { quote } from 'shell-quote';
import { EXIT_CODES, exitCodeForErrorCode } from './exit-codes';
import { ExplainedError } from './explained-error';
import { PartialFailureError } from './partial-failure-error';
import { UsageError } from './usage-error';

export interface ErrorContext {
  /** The daemon URL the command used. */
  url: string;
  /** Whether a bearer token was given (--token or RUNTIMECTL_TOKEN). */
  tokenGiven: boolean;
  /** The command that failed as typed (`runtimectl checkpoint`), for "see its --help"; the program when unknown. */
  command?: string;
  /** The command's Idempotency-Key (--idempotency-key, or the one it made), for running it again once. */
  idempotencyKey?: string;
}

export interface DescribedError {
  /** One line for stderr: what went wrong, then what to do about it. */
  line: string;
  exitCode: number;
  /** The daemon's error code, or the CLI's own (`usage`, `daemon_unreachable`, `client_timeout`, `failed`). */
  code: string;
  /** The daemon's `details`, or what the CLI knows (the URL it could not reach). */
  details: Record<string, unknown>;
  /** The daemon's `x-request-id`, when it answered. */
  requestId?: string;
}

/**
 * Turns any failure into one actionable line and an exit code. Never prints a stack, a token
 * or a response body beyond the daemon's own message: those may hold secrets.
 */
export function describeError(error: unknown, context: ErrorContext): DescribedError {
  if (error instanceof PartialFailureError) {
    const described = describeError(error.cause, context);
    return { ...described, line: `${error.done}: ${described.line}`, details: { ...described.details, done: error.done } };
  }
  if (error instanceof ExplainedError) return { ...describeError(error.cause, context), line: error.line };
  if (error instanceof UsageError) return { line: error.message, exitCode: EXIT_CODES.usage, code: 'usage', details: {} };
  if (error instanceof DaemonUnreachableError && error.requestMayHaveRun) {
    const reason = causeCode(error.cause);
    const key = context.idempotencyKey ?? error.idempotencyKey;
    return {
      line:
        `the daemon at ${error.url} stopped answering during the request and is not reachable now${reason ? ` (${reason})` : ''}: the operation may have run. ` +
        `Once the daemon is back, run the same command with \`--idempotency-key ${key}\`: the daemon carries out a request with a key it has seen only once, so this completes it or gives its answer, never runs it twice.`,
      exitCode: EXIT_CODES.unreachable,
      code: 'daemon_unreachable',
      details: { url: error.url, request_may_have_run: true, idempotency_key: key },
    };
  }
  if (error instanceof DaemonUnreachableError) {
    const reason = causeCode(error.cause);
    return {
      line:
        `the runtimectl daemon is not reachable at ${error.url}${reason ? ` (${reason})` : ''}. ` +
        'Start it with `runtimed` (or `npm start` in a runtimectl checkout), or point RUNTIMECTL_URL or --url at a running daemon.',
      exitCode: EXIT_CODES.unreachable,
      code: 'daemon_unreachable',
      details: { url: error.url },
    };
  }
  if (error instanceof ClientTimeoutError) {
    return {
      line: `no answer from the daemon at ${context.url} within ${error.timeoutMs} ms; the operation may still have run. Check with \`runtimectl show <runtime>\` before retrying.`,
      exitCode: EXIT_CODES.failed,
      code: 'client_timeout',
      details: { url: context.url, timeout_ms: error.timeoutMs },
    };
  }
  if (error instanceof RuntimectlApiError) {
    return {
      line: describeApiError(error, context),
      exitCode: exitCodeForErrorCode(error.code),
      code: error.code,
      details: error.details ?? {},
      ...(error.requestId ? { requestId: error.requestId } : {}),
    };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { line: message, exitCode: EXIT_CODES.failed, code: 'failed', details: {} };
}

function describeApiError(error: RuntimectlApiError, context: ErrorContext): string {
  const details = error.details ?? {};
  const detail = (key: string) => (typeof details[key] === 'string' ? (details[key] as string) : undefined);
  switch (error.code) {
    case 'unauthorized':
      return context.tokenGiven
        ? `the daemon at ${context.url} refused the bearer token (unauthorized). Set RUNTIMECTL_TOKEN or --token to the daemon's token.`
        : `the daemon at ${context.url} requires a bearer token (unauthorized). Set RUNTIMECTL_TOKEN or pass --token.`;
    case 'forbidden':
      return `the daemon at ${context.url} accepted the key but it lacks the ${detail('scope') ?? 'needed'} scope (forbidden). Use a key with that scope.`;
    case 'session_busy':
      return `${subjectOf(detail('runtime_id'))} has an operation in flight (session_busy). Wait for it to finish and retry.`;
    case 'runtime_not_found':
      return `runtime ${detail('runtime_id') ?? '(unknown)'} not found. List runtimes with \`runtimectl ls --all\`.`;
    case 'checkpoint_not_found':
      return `checkpoint ${detail('checkpoint_id') ?? '(unknown)'} not found. List a runtime's checkpoints with \`runtimectl log <runtime>\`.`;
    case 'runtime_exists':
      return runtimeExistsLine(error);
    case 'runtime_closed': {
      const id = detail('runtime_id') ?? '<runtime>';
      return `runtime ${id} is closed (runtime_closed). Its checkpoints stay: \`runtimectl log ${quote([id])}\` lists them, and \`runtimectl checkout <checkpoint>\` continues from one whose snapshot was kept; a new runtime needs another --id.`;
    }
    case 'webhook_not_found':
      return `webhook ${detail('webhook_id') ?? '(unknown)'} not found. List the configured webhooks with \`runtimectl webhooks\`.`;
    case 'api_key_not_found':
      return `API key ${detail('key') ?? '(unknown)'} not found among the stored keys. List the keys with \`runtimectl keys list\`; a key from the daemon's config is revoked by editing the config.`;
    case 'api_key_exists':
      return `an API key named ${detail('key') ?? '(unknown)'} already exists (api_key_exists). Choose another name, or revoke that key first with \`runtimectl keys revoke\`.`;
    case 'path_not_found':
      return `${error.message} (path_not_found). Check the path: it is relative to the runtime's workspace.`;
    case 'checkpoint_snapshot_deleted':
      return `${error.message} (checkpoint_snapshot_deleted): its provider snapshot was deleted, so it can no longer be checked out or resumed.`;
    case 'manifest_unavailable':
      return `${error.message} (manifest_unavailable): only checkpoints whose provider records content manifests can be compared.`;
    case 'checkpoint_verification_failed': {
      const paths = Array.isArray(details['differing_paths']) ? (details['differing_paths'] as Array<{ path: string; change: string }>) : [];
      const first = paths.slice(0, 3).map(({ path, change }) => `${change} ${path}`).join(', ');
      return `${error.message} (checkpoint_verification_failed: ${first}${paths.length > 3 || details['truncated'] === true ? ', …' : ''}): the provider restored a workspace that differs from the checkpoint, so nothing was created and a paused runtime stays paused. Retry; \`--json\` lists every differing path.`;
    }
    case 'unsupported_backend':
      // The daemon's message says it in a user's terms (`details.capability` is the internal name).
      return `${error.message} (unsupported_backend). Open the runtime on a provider that has it: see \`runtimectl providers\`.`;
    case 'invalid_request': {
      const help = `See \`${context.command ?? 'runtimectl'} --help\`.`;
      // status 0: the client's schemas refused it before sending; the daemon never saw it.
      return error.status === 0
        ? `invalid argument: ${error.message.replace(/^invalid request: /, '').replace(/\(root\): /g, '')}. ${help}`
        : `${error.message} (invalid_request). ${help}${requestIdSuffix(error)}`;
    }
    case 'payload_too_large':
      return `${error.message} (payload_too_large). \`runtimectl export <runtime> <path>\` downloads a runtime's file whatever its size.${requestIdSuffix(error)}`;
    case 'route_not_found':
      return `the daemon at ${context.url} does not serve this route (route_not_found): is it a runtimed of a matching version?${requestIdSuffix(error)}`;
    default:
      return `${error.message} (${error.code})${error.retryAfterMs !== undefined ? `; retry in ${Math.ceil(error.retryAfterMs / 1000)} s` : ''}${requestIdSuffix(error)}`;
  }
}

/**
 * A re-open that contradicts the runtime: its own conversation and sender, and the open that
 * re-attaches, when those conflict; otherwise what a re-open must not change.
 */
function runtimeExistsLine(error: RuntimectlApiError): string {
  const details = error.details ?? {};
  const [id, conversation, sender] = [details['runtime_id'], details['conversation_id'], details['sender_id']].map((value) => (typeof value === 'string' ? value : undefined));
  const fields = Array.isArray(details['fields']) ? (details['fields'] as string[]) : [];
  if (!id) return `${error.message} (runtime_exists)`;
  if (conversation !== undefined && sender !== undefined && (fields.includes('conversation_id') || fields.includes('sender_id'))) {
    return (
      `runtime ${id} exists, opened by conversation ${conversation}, sender ${sender} (runtime_exists: a different ${fields.join(', ')}). ` +
      `Re-attach with \`runtimectl open --id ${quote([id])} --conversation ${quote([conversation])} --sender ${quote([sender])}\`, or choose another --id.`
    );
  }
  return `runtime ${id} exists with a different ${fields.join(', ')} (runtime_exists). A re-open must match it: change its metadata with \`runtimectl update ${quote([id])} -m …\`, or choose another --id.`;
}

function subjectOf(runtimeId: string | undefined): string {
  return runtimeId ? `runtime ${runtimeId}` : 'the runtime';
}

function requestIdSuffix(error: RuntimectlApiError): string {
  return error.requestId ? ` [request ${error.requestId}]` : '';
}

function causeCode(cause: unknown): string | undefined {
  if (cause && typeof cause === 'object') {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    const nested = (cause as { cause?: unknown }).cause;
    if (nested !== undefined) return causeCode(nested);
    const message = (cause as { message?: unknown }).message;
    if (typeof message === 'string') return message;
  }
  return undefined;
}
