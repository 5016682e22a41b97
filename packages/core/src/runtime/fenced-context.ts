import type { RuntimeFence } from '../store/fleet-store';
import type { RuntimeStore, StoreBatch } from '../store/runtime-store';
import type { ServiceContext } from './service-context';

/** `store` whose every commit also carries `fence` (reads and everything else go to `store` as they are). */
export function fencedStore(store: RuntimeStore, fence: RuntimeFence): RuntimeStore {
  const commit = (batch: StoreBatch) => store.commit({ ...batch, fences: [...(batch.fences ?? []), fence] });
  return new Proxy(store, {
    get(target, key) {
      if (key === 'commit') return commit;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** The context of an operation holding `fence`: its commits, the backends' intents among them, carry it. */
export function underFence(ctx: ServiceContext, fence: RuntimeFence): ServiceContext {
  const store = fencedStore(ctx.store, fence);
  return { ...ctx, store, backends: ctx.backends.withStore(store) };
}
