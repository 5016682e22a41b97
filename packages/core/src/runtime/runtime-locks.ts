import { SessionBusyError } from '../errors/runtime-state-errors';

interface LockState {
  shared: number;
  checkouts: number;
  exclusive: boolean;
}

/** How an operation holds a runtime's lock. */
export type RuntimeLockMode = 'shared' | 'checkout' | 'exclusive';

/**
 * One lock per runtime. Data operations (exec, files, search) share it; control operations
 * (checkpoint, pause, resume, update, close) hold it exclusively. A checkout holds its source
 * runtime in `checkout` mode: it needs the source idle when it arrives (the seed's rule), but
 * once in flight it only keeps the source from control operations (close could pull the
 * snapshot or the lineage from under it), so data operations and other checkouts go on.
 * Nothing waits: a conflicting request fails fast with `SessionBusyError`.
 */
export class RuntimeLocks {
  readonly #locks = new Map<string, LockState>();

  acquire(runtimeId: string, mode: RuntimeLockMode): () => void {
    const state = this.#locks.get(runtimeId) ?? { shared: 0, checkouts: 0, exclusive: false };
    const conflict = conflictOf(state, mode);
    if (conflict) throw new SessionBusyError(runtimeId, conflict);
    if (mode === 'exclusive') state.exclusive = true;
    else if (mode === 'shared') state.shared += 1;
    else state.checkouts += 1;
    this.#locks.set(runtimeId, state);
    return once(() => {
      if (mode === 'exclusive') state.exclusive = false;
      else if (mode === 'shared') state.shared -= 1;
      else state.checkouts -= 1;
      if (isFree(state) && this.#locks.get(runtimeId) === state) this.#locks.delete(runtimeId);
    });
  }

  /** Whether an operation of the runtime's own is in flight (its `running` status); checkouts of its checkpoints are not. */
  isHeld(runtimeId: string): boolean {
    const state = this.#locks.get(runtimeId);
    return state !== undefined && (state.exclusive || state.shared > 0);
  }

  heldRuntimeIds(): string[] {
    return [...this.#locks.keys()].filter((runtimeId) => this.isHeld(runtimeId));
  }
}

/** Why `mode` cannot be taken now, or undefined when it can. */
function conflictOf(state: LockState, mode: RuntimeLockMode): string | undefined {
  if (state.exclusive) return 'a control operation is in flight';
  if (mode === 'shared') return undefined;
  if (state.shared > 0) return 'an operation is in flight';
  if (mode === 'exclusive' && state.checkouts > 0) return 'a checkout of its checkpoint is in flight';
  return undefined;
}

const isFree = (state: LockState) => state.shared === 0 && state.checkouts === 0 && !state.exclusive;

function once(fn: () => void): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    fn();
  };
}
