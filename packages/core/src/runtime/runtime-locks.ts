import { SessionBusyError } from '../errors/runtime-state-errors';

interface LockState {
  shared: number;
  exclusive: boolean;
}

/**
 * One lock per runtime. Data operations (exec, files, search) share it; control operations
 * (checkpoint, checkout of its checkpoints, pause, resume, update, close) hold it exclusively.
 * Nothing waits: a conflicting request fails fast with `SessionBusyError`.
 */
export class RuntimeLocks {
  readonly #locks = new Map<string, LockState>();

  acquireShared(runtimeId: string): () => void {
    const state = this.#locks.get(runtimeId) ?? { shared: 0, exclusive: false };
    if (state.exclusive) throw new SessionBusyError(runtimeId, 'a control operation is in flight');
    state.shared += 1;
    this.#locks.set(runtimeId, state);
    return once(() => {
      state.shared -= 1;
      this.#forgetIfFree(runtimeId, state);
    });
  }

  acquireExclusive(runtimeId: string): () => void {
    const state = this.#locks.get(runtimeId);
    if (state) throw new SessionBusyError(runtimeId, state.exclusive ? 'a control operation is in flight' : 'an operation is in flight');
    const held: LockState = { shared: 0, exclusive: true };
    this.#locks.set(runtimeId, held);
    return once(() => {
      held.exclusive = false;
      this.#forgetIfFree(runtimeId, held);
    });
  }

  isHeld(runtimeId: string): boolean {
    return this.#locks.has(runtimeId);
  }

  heldRuntimeIds(): string[] {
    return [...this.#locks.keys()];
  }

  #forgetIfFree(runtimeId: string, state: LockState): void {
    if (state.shared === 0 && !state.exclusive && this.#locks.get(runtimeId) === state) this.#locks.delete(runtimeId);
  }
}

function once(fn: () => void): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    fn();
  };
}
