import type { RuntimeStore } from './runtime-store';
import { storeWithCommit } from './store-with-commit';

/**
 * Tells waiters when this process committed events, so a local event stream wakes at once
 * instead of at its next poll (events of other nodes still arrive by polling).
 */
export class EventSignal {
  #waiters = new Set<() => void>();

  /** Resolves at the next local commit that appended events, after `timeoutMs`, or on `abort`. */
  next(timeoutMs: number, abort?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#waiters.delete(done);
        abort?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      this.#waiters.add(done);
      abort?.addEventListener('abort', done, { once: true });
      if (abort?.aborted) done();
    });
  }

  /** `store` with commits that append events waking the waiters once they are committed. */
  watching(store: RuntimeStore): RuntimeStore {
    return storeWithCommit(store, async (batch) => {
      await store.commit(batch);
      if ((batch.events?.length ?? 0) > 0) for (const wake of [...this.#waiters]) wake();
    });
  }
}
