import { RuntimectlError } from './runtimectl-error';

/** Capabilities whose name is not what a caller would call them. */
const CAPABILITY_TERMS: Record<string, string> = {
  read_snapshot_file: "reading a checkpoint's files without restoring it",
  delete_snapshot: 'deleting snapshots',
};

/** The runtime's provider lacks the capability (e.g. local checkout/pause). Raised before any side effect. */
export class UnsupportedBackendError extends RuntimectlError {
  /**
   * `capability` is the stable name callers branch on (`details.capability`); the message says
   * it in a caller's terms, or is `message` when the call site knows better.
   */
  constructor(
    readonly providerId: string,
    readonly capability: string,
    message = `provider ${providerId} does not support ${CAPABILITY_TERMS[capability] ?? capability}`,
  ) {
    super('unsupported_backend', message, {
      details: { provider: providerId, capability },
    });
  }
}

/** The provider failed. The message names the call; never a key or token. */
export class ProviderError extends RuntimectlError {
  constructor(
    readonly providerId: string,
    readonly call: string,
    message: string,
    cause?: unknown,
  ) {
    super('provider_error', `${providerId} ${call} failed: ${message}`, {
      details: { provider: providerId, call },
      cause,
    });
  }
}

/**
 * The provider resource behind a backend no longer exists (sandbox expired or killed elsewhere,
 * workspace directory removed). The service marks the runtime `failed` when it sees this.
 */
export class BackendGoneError extends ProviderError {
  constructor(providerId: string, call: string, message: string, cause?: unknown) {
    super(providerId, call, message, cause);
  }
}

/**
 * The provider no longer has the snapshot a `checkout` was asked to start from (deleted at the
 * provider behind the daemon's back, or lost with the provider's process). Providers throw it so
 * core can tell "gone for good" from a failure worth retrying: core answers
 * `checkpoint_snapshot_deleted` and forgets the snapshot in every record that names it.
 */
export class ProviderSnapshotNotFoundError extends ProviderError {
  constructor(providerId: string, call: string, message: string, cause?: unknown) {
    super(providerId, call, message, cause);
  }
}

/** The provider call exceeded its deadline. */
export class ProviderTimeoutError extends RuntimectlError {
  constructor(
    readonly providerId: string,
    readonly call: string,
    readonly timeoutMs: number,
  ) {
    super('provider_timeout', `${providerId} ${call} did not answer within ${timeoutMs} ms`, {
      details: { provider: providerId, call, timeout_ms: timeoutMs },
    });
  }
}

/** The provider refused for capacity (e.g. E2B's concurrent sandbox limit). */
export class ProviderCapacityError extends RuntimectlError {
  constructor(
    readonly providerId: string,
    readonly call: string,
    message: string,
    readonly retryAfterMs?: number,
  ) {
    super('provider_capacity', `${providerId} ${call} refused for capacity: ${message}`, {
      details: {
        provider: providerId,
        call,
        ...(retryAfterMs === undefined ? {} : { retry_after_ms: retryAfterMs }),
      },
    });
  }
}

/**
 * Deleting the snapshot would break a paused runtime's resume point or a live backend made from
 * it. `subject` names what was to be deleted ("checkpoint rtcp_…", "snapshot …").
 */
export class SnapshotInUseError extends RuntimectlError {
  constructor(
    readonly subject: string,
    readonly runtimeIds: readonly string[],
    /** Who needs it when no runtime can be named (e.g. "a sandbox made from it still exists"). */
    holder = 'an operation in flight',
  ) {
    const holders = runtimeIds.length > 0 ? runtimeIds.join(', ') : holder;
    super('snapshot_in_use', `the snapshot of ${subject} is still needed by ${holders}`, {
      details: { runtime_ids: [...runtimeIds] },
    });
  }
}
