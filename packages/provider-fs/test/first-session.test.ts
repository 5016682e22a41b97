import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemoryRuntimeStore, RuntimeService } from '@runtimectl/core';
import { createFsProvider } from '../src/index';
import { useTemporaryDirectories } from './fs-fixture';

const text = (base64: string) => Buffer.from(base64, 'base64').toString('utf8');

// The README's first session, through core: open → write → exec → checkpoint → checkout → pause → resume → close.
describe('first session on the fs provider', () => {
  const temporary = useTemporaryDirectories();

  it('checkpoint, checkout, pause and resume carry the files real shell commands wrote', async () => {
    const dir = await temporary('session');
    const fs = createFsProvider({ root: join(dir, 'workspaces'), snapshots: join(dir, 'snapshots') });
    const service = new RuntimeService({ store: new MemoryRuntimeStore(), providers: [fs], defaultProvider: 'fs' });
    const { runtime } = await service.open({ conversation_id: 'c1', sender_id: 'me' });
    const id = runtime.runtime_id;
    await service.writeFile({ runtime_id: id, path: 'notes.txt', content_base64: Buffer.from('written\n').toString('base64') });
    const ran = await service.exec({ runtime_id: id, command: 'mkdir -p src && echo hi > src/a.txt && cat notes.txt', timeout_ms: 10_000 });
    expect(ran.exit_code).toBe(0);
    const { checkpoint_id } = await service.checkpoint({ runtime_id: id });
    await service.exec({ runtime_id: id, command: 'echo after > src/a.txt', timeout_ms: 10_000 });

    const { runtime: child } = await service.checkout({ checkpoint_id, conversation_id: 'c2', sender_id: 'me' });
    const inChild = await service.exec({ runtime_id: child.runtime_id, command: 'cat src/a.txt notes.txt', timeout_ms: 10_000 });
    expect(text(inChild.stdout_base64)).toBe('hi\nwritten\n');

    await service.pause({ runtime_id: id });
    await service.resume({ runtime_id: id });
    const resumed = await service.readFile({ runtime_id: id, path: 'src/a.txt' });
    expect(text(resumed.content_base64)).toBe('after\n');

    await service.close({ runtime_id: child.runtime_id });
    await service.close({ runtime_id: id });
  });
});
