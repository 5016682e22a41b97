/**
 * The control-plane calls the emulator served, each with when it started and ended (after its
 * hang, latency and work), so a test can prove from outside that two callers never worked on one
 * sandbox at the same time. Bounded: the oldest records go first.
 */
import type { EmulatorOperation } from './operations.js';

/** One control-plane call, as `GET /_emulator/call-log` reports it. */
export interface ControlCallRecord {
  operation: EmulatorOperation;
  /** The sandbox the call named, or (create) the sandbox it made; null when there is none. */
  sandboxId: string | null;
  /** `DELETE /templates/{templateID}`: the template named; else null. */
  templateId: string | null;
  /** The sandbox's metadata when the call started (create: the new sandbox's); `{}` when unknown. */
  metadata: Record<string, string>;
  /** Epoch milliseconds with sub-millisecond precision. */
  startedAtMs: number;
  endedAtMs: number;
  /** The HTTP status answered (injected failures included). */
  status: number;
}

/** The mutable record of a call in flight: a route may fill in what only it knows (create's new sandbox). */
export type CallInFlight = Omit<ControlCallRecord, 'endedAtMs' | 'status'>;

export const CALL_LOG_LIMIT = 20_000;

export const preciseNowMs = (): number => performance.timeOrigin + performance.now();

export class CallLog {
  private records: ControlCallRecord[] = [];

  constructor(private readonly limit = CALL_LOG_LIMIT) {}

  add(call: CallInFlight, status: number): void {
    this.records.push({ ...call, metadata: { ...call.metadata }, endedAtMs: preciseNowMs(), status });
    if (this.records.length > this.limit) this.records.splice(0, this.records.length - this.limit);
  }

  list(): ControlCallRecord[] {
    return this.records.map((record) => ({ ...record, metadata: { ...record.metadata } }));
  }

  clear(): void {
    this.records = [];
  }
}
