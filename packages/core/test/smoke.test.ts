import { describe, expect, it } from 'vitest';
import { MemoryRuntimeStore, RuntimeService } from '@runtimectl/core';
import { createMemoryProvider } from '@runtimectl/testkit';

describe('smoke', () => {
  it('opens, writes, checkpoints, checks out and reads back', async () => {
    const provider = createMemoryProvider();
    const service = new RuntimeService({ store: new MemoryRuntimeStore(), providers: [provider], defaultProvider: 'memory' });
    const { runtime } = await service.open({ conversation_id: 'c', sender_id: 's' });
    await service.writeFile({ runtime_id: runtime.runtime_id, path: 'a.txt', content_base64: Buffer.from('one').toString('base64') });
    const checkpoint = await service.checkpoint({ runtime_id: runtime.runtime_id });
    await service.writeFile({ runtime_id: runtime.runtime_id, path: 'a.txt', content_base64: Buffer.from('two').toString('base64') });
    const child = await service.checkout({ checkpoint_id: checkpoint.checkpoint_id });
    const read = await service.readFile({ runtime_id: child.runtime.runtime_id, path: 'a.txt' });
    expect(Buffer.from(read.content_base64, 'base64').toString()).toBe('one');
  });
});
