/**
 * Latency, concurrency limit, fault injection and call counters. Every request passes
 * through `admit(operation)` before the route does any work.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { EMULATOR_OPERATIONS, type EmulatorOperation } from './operations.js';

/** A queued failure: the next `remaining` calls answer `status` (and `message`). */
export interface FailureFault {
  status: number;
  message?: string;
  remaining: number;
}

/** A queued hang: the next `remaining` calls wait `ms` before anything else happens. */
export interface HangFault {
  ms: number;
  remaining: number;
}

/**
 * How a dropped `process.Process/Start` stream ends: `omit-end` closes it cleanly after the
 * process exits but without the `end` event (the SDK says "Process exited without a result");
 * `reset` destroys the connection right after the `start` event.
 */
export type DropStreamMode = 'omit-end' | 'reset';

export interface DropStreamFault {
  mode: DropStreamMode;
  remaining: number;
}

/** What `admit` decided: go on, or answer the injected failure. */
export type Admission = { kind: 'proceed' } | { kind: 'fail'; status: number; message: string };

export interface KnobsSnapshot {
  latencyMs: Record<EmulatorOperation, number>;
  maxSandboxes: number | null;
  calls: Record<EmulatorOperation, number>;
  pendingFailures: Partial<Record<EmulatorOperation, FailureFault[]>>;
  pendingHangs: Partial<Record<EmulatorOperation, HangFault[]>>;
  pendingStreamDrops: DropStreamFault[];
}

export class EmulatorKnobs {
  private latencyMs = zeroRecord();
  private calls = zeroRecord();
  private failures = new Map<EmulatorOperation, FailureFault[]>();
  private hangs = new Map<EmulatorOperation, HangFault[]>();
  private streamDrops: DropStreamFault[] = [];

  constructor(
    latency: Partial<Record<EmulatorOperation, number>> = {},
    /** Concurrent running sandboxes allowed; null = unlimited. */
    public maxSandboxes: number | null = null,
  ) {
    this.setLatencies(latency);
  }

  /** Sets the delay applied to every call of `operation` before it is answered. */
  setLatency(operation: EmulatorOperation, ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`latency must be a non-negative number of ms, got ${ms}`);
    this.latencyMs[operation] = ms;
  }

  setLatencies(latency: Partial<Record<EmulatorOperation, number>>): void {
    for (const [operation, ms] of Object.entries(latency)) this.setLatency(operation as EmulatorOperation, ms as number);
  }

  /** Queues `count` failures of `operation` with HTTP `status`. */
  failNext(operation: EmulatorOperation, fault: { count?: number; status: number; message?: string }): void {
    const count = fault.count ?? 1;
    if (!Number.isInteger(fault.status) || fault.status < 400 || fault.status > 599) {
      throw new RangeError(`an injected failure needs a 4xx/5xx status, got ${fault.status}`);
    }
    const queue = this.failures.get(operation) ?? [];
    queue.push({ status: fault.status, remaining: count, ...(fault.message ? { message: fault.message } : {}) });
    this.failures.set(operation, queue);
  }

  /** Queues `count` hangs of `ms` for `operation` (on top of its latency). */
  hangNext(operation: EmulatorOperation, fault: { count?: number; ms: number }): void {
    const queue = this.hangs.get(operation) ?? [];
    queue.push({ ms: fault.ms, remaining: fault.count ?? 1 });
    this.hangs.set(operation, queue);
  }

  /** Drops the next `count` `process.Process/Start` streams before their `end` event. */
  dropNextStreams(fault: { count?: number; mode?: DropStreamMode } = {}): void {
    this.streamDrops.push({ mode: fault.mode ?? 'omit-end', remaining: fault.count ?? 1 });
  }

  /** Takes one queued stream drop, if any. */
  takeStreamDrop(): DropStreamMode | undefined {
    const head = this.streamDrops[0];
    if (!head) return undefined;
    head.remaining -= 1;
    if (head.remaining <= 0) this.streamDrops.shift();
    return head.mode;
  }

  /**
   * Counts the call and decides its fate as it arrives (an injected failure due now, never one
   * queued while it is held: a held call carried out late must not take the failure meant for
   * the next one), then waits out a queued hang and the operation's latency. Never throws.
   */
  async admit(operation: EmulatorOperation, options: { latencyInHandler?: boolean } = {}): Promise<Admission> {
    this.calls[operation] += 1;
    const failure = takeFromQueue(this.failures, operation);
    const hang = takeFromQueue(this.hangs, operation);
    if (hang) await delay(hang.ms);
    if (!options.latencyInHandler) await this.spendLatency(operation);
    if (failure) {
      return { kind: 'fail', status: failure.status, message: failure.message ?? `injected failure of ${operation}` };
    }
    return { kind: 'proceed' };
  }

  /**
   * Waits `operation`'s latency. `admit` does it before the route works, unless the route
   * spends it itself inside the operation (a snapshot: the sandbox is busy for that long).
   */
  async spendLatency(operation: EmulatorOperation): Promise<void> {
    const latency = this.latencyMs[operation];
    if (latency > 0) await delay(latency);
  }

  /** Clears counters and queued faults; latencies and the sandbox limit are kept. */
  reset(): void {
    this.calls = zeroRecord();
    this.failures.clear();
    this.hangs.clear();
    this.streamDrops = [];
  }

  snapshot(): KnobsSnapshot {
    return {
      latencyMs: { ...this.latencyMs },
      maxSandboxes: this.maxSandboxes,
      calls: { ...this.calls },
      pendingFailures: Object.fromEntries([...this.failures].map(([op, queue]) => [op, queue.map((f) => ({ ...f }))])),
      pendingHangs: Object.fromEntries([...this.hangs].map(([op, queue]) => [op, queue.map((f) => ({ ...f }))])),
      pendingStreamDrops: this.streamDrops.map((fault) => ({ ...fault })),
    };
  }
}

function zeroRecord(): Record<EmulatorOperation, number> {
  return Object.fromEntries(EMULATOR_OPERATIONS.map((operation) => [operation, 0])) as Record<
    EmulatorOperation,
    number
  >;
}

function takeFromQueue<T extends { remaining: number }>(
  queues: Map<EmulatorOperation, T[]>,
  operation: EmulatorOperation,
): T | undefined {
  const queue = queues.get(operation);
  const head = queue?.[0];
  if (!queue || !head) return undefined;
  head.remaining -= 1;
  if (head.remaining <= 0) queue.shift();
  if (queue.length === 0) queues.delete(operation);
  return head;
}
