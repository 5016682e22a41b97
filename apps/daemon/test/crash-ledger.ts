import type { HttpAnswer } from './daemon-http';

export type Operation = 'open' | 'write' | 'checkpoint' | 'checkout' | 'pause' | 'resume' | 'close';
export type KnownStatus = 'idle' | 'paused' | 'closed' | 'failed';

export const ROUTE_OF: Record<Operation, string> = {
  open: '/runtimes/open',
  write: '/runtimes/write-file',
  checkpoint: '/runtimes/checkpoint',
  checkout: '/runtimes/checkout',
  pause: '/runtimes/pause',
  resume: '/runtimes/resume',
  close: '/runtimes/close',
};

/** What the status of a runtime may have become when one of these went unanswered. */
const UNANSWERED_OUTCOMES: Partial<Record<Operation, KnownStatus[]>> = {
  // A pause or close releases the sandbox before it commits: a kill in between leaves the
  // runtime bound to a dead sandbox, which reconciliation marks failed (explicitly, with why).
  pause: ['paused', 'failed'],
  close: ['closed', 'failed'],
  resume: ['idle'],
};

export interface RuntimeEntry {
  runtimeId: string;
  /** The worker that drives it (one at a time per runtime, so its history is a sequence). */
  owner: number;
  status: KnownStatus;
  /** Acknowledged writes still expected in it: path → base64 content. */
  files: Map<string, string>;
  parentRuntimeId: string | null;
  forkedFromCheckpointId: string | null;
  /** Control operations sent after the last acknowledged status whose answer never arrived. */
  unanswered: Operation[];
  /** An operation of its owner is in flight. */
  busy: boolean;
}

export interface CheckpointEntry {
  checkpointId: string;
  runtimeId: string;
  parentCheckpointId: string | null;
  kind: 'checkpoint' | 'pause';
  /** The acknowledged files it captured (its runtime's files when it was taken). */
  files: Map<string, string>;
}

export interface SentRequest {
  operation: Operation;
  round: number;
  key: string;
  body: Record<string, unknown>;
  /** The runtime it acts on (not for open and checkout, which make one). */
  runtimeId: string | null;
  owner: number;
  /** Undefined when no complete answer arrived (the daemon died first). */
  answer?: HttpAnswer;
}

/**
 * Everything the daemon acknowledged (a complete 2xx answer), as the test saw it: the facts a
 * restart must not lose. Kept per runtime, so each runtime's history is exact.
 */
export class CrashLedger {
  readonly runtimes = new Map<string, RuntimeEntry>();
  readonly checkpoints = new Map<string, CheckpointEntry>();
  readonly sent: SentRequest[] = [];

  runtimesOf(owner: number): RuntimeEntry[] {
    return [...this.runtimes.values()].filter((entry) => entry.owner === owner);
  }

  liveRuntimeCount(): number {
    return [...this.runtimes.values()].filter((entry) => entry.status === 'idle' || entry.status === 'paused').length;
  }

  /** Records a runtime the test had no acknowledgement for (an open or checkout whose answer was lost). */
  adopt(runtimeId: string, owner: number, status: KnownStatus, lineage: { parent: string | null; forkedFrom: string | null }): RuntimeEntry {
    const entry: RuntimeEntry = {
      runtimeId,
      owner,
      status,
      files: new Map(),
      parentRuntimeId: lineage.parent,
      forkedFromCheckpointId: lineage.forkedFrom,
      unanswered: [],
      busy: false,
    };
    this.runtimes.set(runtimeId, entry);
    return entry;
  }

  /** The statuses a runtime may have after a restart, given what was and was not acknowledged. */
  allowedStatuses(entry: RuntimeEntry): KnownStatus[] {
    const allowed = new Set<KnownStatus>([entry.status]);
    for (const operation of entry.unanswered) for (const status of UNANSWERED_OUTCOMES[operation] ?? []) allowed.add(status);
    return [...allowed];
  }

  /** Applies a complete 2xx answer to `request`. */
  acknowledge(request: SentRequest, body: any): void {
    const target = request.runtimeId ? this.runtimes.get(request.runtimeId) : undefined;
    switch (request.operation) {
      case 'open': {
        const runtimeId: string = body.runtime.runtime_id;
        if (!this.runtimes.has(runtimeId)) this.adopt(runtimeId, request.owner, 'idle', { parent: null, forkedFrom: null });
        return;
      }
      case 'checkout': {
        const source = this.checkpoints.get(body.checkpoint_id);
        const child = this.adopt(body.runtime.runtime_id, request.owner, 'idle', {
          parent: body.source_runtime_id,
          forkedFrom: body.checkpoint_id,
        });
        child.files = new Map(source?.files);
        return;
      }
      case 'write':
        target!.files.set(String(request.body.path), String(request.body.content_base64));
        return;
      case 'checkpoint':
      case 'pause':
        this.checkpoints.set(body.checkpoint_id, {
          checkpointId: body.checkpoint_id,
          runtimeId: target!.runtimeId,
          parentCheckpointId: body.parent_checkpoint_id,
          kind: request.operation,
          files: new Map(target!.files),
        });
        if (request.operation === 'pause') this.#settle(target!, 'paused');
        return;
      case 'resume':
        this.#settle(target!, 'idle');
        return;
      case 'close':
        this.#settle(target!, 'closed');
        return;
    }
  }

  /** The status the daemon reports after a restart has been checked: it is the new baseline. */
  resync(entry: RuntimeEntry, status: KnownStatus): void {
    this.#settle(entry, status);
  }

  #settle(entry: RuntimeEntry, status: KnownStatus): void {
    entry.status = status;
    entry.unanswered = [];
    // A failed or closed runtime's files are no longer reachable; nothing more is expected of them.
    if (status === 'failed' || status === 'closed') entry.files.clear();
  }
}
