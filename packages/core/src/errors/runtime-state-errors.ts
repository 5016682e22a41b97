import { RuntimectlError } from '@runtimectl/provider';

/** The runtime (or a checkout's source runtime) has an operation in flight. Retry later. */
export class SessionBusyError extends RuntimectlError {
  constructor(
    readonly runtimeId: string,
    reason = 'another operation is in flight',
  ) {
    super('session_busy', `runtime ${runtimeId} is busy: ${reason}`, { details: { runtime_id: runtimeId } });
  }
}

/** The runtime exists but its status does not allow the operation. */
export abstract class InvalidStateError extends RuntimectlError {}

export class RuntimePausedError extends InvalidStateError {
  constructor(readonly runtimeId: string) {
    super('runtime_paused', `runtime ${runtimeId} is paused; resume it first`, { details: { runtime_id: runtimeId } });
  }
}

export class RuntimeNotPausedError extends InvalidStateError {
  constructor(readonly runtimeId: string) {
    super('runtime_not_paused', `runtime ${runtimeId} is not paused`, { details: { runtime_id: runtimeId } });
  }
}

/** The runtime is closed, for good: its id is spent; its checkpoints stay (and can be checked out where their snapshot was kept). */
export class RuntimeClosedError extends InvalidStateError {
  constructor(readonly runtimeId: string) {
    super(
      'runtime_closed',
      `runtime ${runtimeId} is closed: its checkpoints stay in its log (those whose snapshot was kept can be checked out); to go on, check one out or open a runtime under another id`,
      { details: { runtime_id: runtimeId } },
    );
  }
}

/**
 * The runtime's TTL (`expires_at_ms`) has passed: nothing more runs on it, whatever its status,
 * until the policy pass closes it (close it yourself meanwhile, if you like). Update cannot move
 * a TTL that has passed.
 */
export class RuntimeExpiredError extends InvalidStateError {
  constructor(
    readonly runtimeId: string,
    readonly expiresAtMs: number,
  ) {
    super('runtime_expired', `runtime ${runtimeId} expired at ${new Date(expiresAtMs).toISOString()} (its TTL); it is being closed`, {
      details: { runtime_id: runtimeId, expires_at_ms: expiresAtMs },
    });
  }
}

/**
 * The runtime lost its backend (the provider resource vanished); check out a checkpoint or close
 * it. `cause` keeps the provider's own account (its ids, for the log); the message never does.
 */
export class RuntimeFailedError extends InvalidStateError {
  constructor(
    readonly runtimeId: string,
    reason: string,
    cause?: unknown,
  ) {
    super('runtime_failed', `runtime ${runtimeId} has failed: ${reason}`, { details: { runtime_id: runtimeId }, cause });
  }
}

/**
 * open with an id that already exists with other settings; `fields` names the request fields that
 * conflict, `owner` the runtime's own conversation and sender (what a re-attach must give).
 */
export class RuntimeExistsError extends InvalidStateError {
  constructor(
    readonly runtimeId: string,
    readonly fields: readonly string[],
    owner: { conversationId: string; senderId: string },
  ) {
    const party = fields.includes('conversation_id') || fields.includes('sender_id');
    const instead = party
      ? `: it was opened by conversation ${owner.conversationId}, sender ${owner.senderId}; re-open it with those to re-attach, or choose another runtime_id`
      : '; a re-open must match the runtime (change metadata or session_state with update), or choose another runtime_id';
    super('runtime_exists', `runtime ${runtimeId} already exists with a different ${fields.join(', ')}${instead}`, {
      details: { runtime_id: runtimeId, fields: [...fields], conversation_id: owner.conversationId, sender_id: owner.senderId },
    });
  }
}
