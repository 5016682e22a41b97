import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemoryRuntimeStore, RuntimeService } from '@runtimectl/core';
import { createFsProvider } from '../src/index';
import { useTemporaryDirectories } from './fs-fixture';

const text = (base64: string) => Buffer.from(base64, 'base64').toString('utf8');

// Finding 6 of issue 31: a command's `pwd` was <state>/fs/workspaces/bkd_<id>, a new one after
// every checkout, pause and resume, so a path a command wrote down broke at the next one.
describe('the fs provider\'s stable workspace path', () => {
  const temporary = useTemporaryDirectories();

  it('a path a command wrote down works after pause and resume, and in a checkout', async () => {
    const dir = await temporary('stable');
    const fs = createFsProvider({ root: join(dir, 'workspaces'), snapshots: join(dir, 'snapshots') });
    const service = new RuntimeService({ store: new MemoryRuntimeStore(), providers: [fs], defaultProvider: 'fs' });
    const { runtime } = await service.open({ conversation_id: 'c1', sender_id: 'me' });
    const id = runtime.runtime_id;
    const exec = async (runtimeId: string, command: string) => {
      const result = await service.exec({ runtime_id: runtimeId, command, timeout_ms: 20_000 });
      return { code: result.exit_code, out: text(result.stdout_base64), err: text(result.stderr_base64) };
    };
    const setup = 'mkdir -p bin && printf "#!/bin/sh\\necho tool ran\\n" > bin/tool && chmod +x bin/tool && echo "$PWD/bin/tool" >> run.sh && chmod +x run.sh && pwd';
    const first = await exec(id, setup);
    expect(first).toMatchObject({ code: 0, out: '/home/user/workspace\n' });
    const { checkpoint_id } = await service.checkpoint({ runtime_id: id });

    await service.pause({ runtime_id: id });
    await service.resume({ runtime_id: id });
    expect(await exec(id, './run.sh; pwd; echo "$HOME"')).toEqual({ code: 0, out: 'tool ran\n/home/user/workspace\n/home/user/workspace\n', err: '' });

    const { runtime: child } = await service.checkout({ checkpoint_id, conversation_id: 'c2', sender_id: 'me' });
    expect(await exec(child.runtime_id, './run.sh; pwd')).toEqual({ code: 0, out: 'tool ran\n/home/user/workspace\n', err: '' });
    await service.close({ runtime_id: child.runtime_id });
    await service.close({ runtime_id: id });
  });
});
