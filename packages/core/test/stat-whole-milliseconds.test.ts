import { MemoryRuntimeStore, RuntimeService, RuntimeStatResultSchema, type ProviderBackend } from '@runtimectl/core';
import { createMemoryProvider, delegatingProvider } from '@runtimectl/testkit';
import { describe, expect, it } from 'vitest';

/** A backend whose stat reports a file system's mtime as Node gives it: milliseconds with a fraction. */
function fractionalTimes(backend: ProviderBackend): ProviderBackend {
  return new Proxy(backend, {
    get(target, key) {
      if (key === 'stat') return async (path: string) => ({ ...(await target.stat(path)), modifiedAtMs: 1_700_000_000_000.75 });
      const value = Reflect.get(target, key, target) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

describe('stat', () => {
  it('answers whole milliseconds when a provider reports a fraction (as fs.stat mtimeMs does)', async () => {
    const inner = createMemoryProvider();
    const provider = delegatingProvider(inner, { create: async (request) => fractionalTimes(await inner.create(request)) });
    const service = new RuntimeService({ store: new MemoryRuntimeStore(), providers: [provider], defaultProvider: 'memory' });
    const { runtime } = await service.open({ conversation_id: 'c', sender_id: 's' });
    await service.writeFile({ runtime_id: runtime.runtime_id, path: 'a.txt', content_base64: btoa('x') });
    const stat = await service.stat({ runtime_id: runtime.runtime_id, path: 'a.txt' });
    expect(stat.modified_at_ms).toBe(1_700_000_000_000);
    expect(RuntimeStatResultSchema.safeParse(stat).success).toBe(true);
  });
});
