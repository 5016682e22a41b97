import type { SessionMark } from '../store/records';

/**
 * This node's record of when an operation last ran on each runtime, kept in memory so that an
 * operation costs no store write: every policy pass flushes it (`drain`) into one batched store
 * write (StoreBatch.sessionMarks), and the idle pass decides on the later of the stored time and
 * this node's own (`latest`). Another node's operations count from its next flush: a runtime
 * operated on only through another node can be paused up to one policy interval early.
 */
export class IdleActivity {
  readonly #latest = new Map<string, number>();

  /** An operation on `runtimeId` ran at `atMs`. */
  note(runtimeId: string, atMs: number): void {
    const known = this.#latest.get(runtimeId);
    if (known === undefined || atMs > known) this.#latest.set(runtimeId, atMs);
  }

  latest(runtimeId: string): number | undefined {
    return this.#latest.get(runtimeId);
  }

  /** Everything noted since the last drain, as store marks, and forgets it (`restore` puts it back should the write fail). */
  drain(): SessionMark[] {
    const marks = [...this.#latest].map(([runtimeId, activeAtMs]) => ({ runtimeId, activeAtMs }));
    this.#latest.clear();
    return marks;
  }

  restore(marks: readonly SessionMark[]): void {
    for (const mark of marks) this.note(mark.runtimeId, mark.activeAtMs);
  }
}
