import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemoryRuntimeStore, RuntimeService } from '@runtimectl/core';
import { createFsProvider } from '../src/index';
import { useTemporaryDirectories } from './fs-fixture';

const text = (base64: string) => Buffer.from(base64, 'base64').toString('utf8');

// Issue 34's hostile review, as an agent does it: with shell commands, through core.
describe('hostile names and depths through core on the fs provider', () => {
  const temporary = useTemporaryDirectories();

  async function session() {
    const dir = await temporary('hostile-names');
    const fs = createFsProvider({ root: join(dir, 'workspaces'), snapshots: join(dir, 'snapshots'), isolation: 'none' });
    const service = new RuntimeService({ store: new MemoryRuntimeStore(), providers: [fs], defaultProvider: 'fs' });
    const { runtime } = await service.open({ conversation_id: 'c1', sender_id: 'me' });
    const run = async (runtime_id: string, command: string) => {
      const ran = await service.exec({ runtime_id, command, timeout_ms: 20_000 });
      expect(ran.exit_code, text(ran.stderr_base64)).toBe(0);
      return text(ran.stdout_base64);
    };
    return { service, id: runtime.runtime_id, run };
  }

  it('a non-UTF-8 name and the name it decodes to survive checkpoint, diff, checkout and every later delete-snapshot', async () => {
    const { service, id, run } = await session();
    const { checkpoint_id: empty } = await service.checkpoint({ runtime_id: id });
    await run(id, `printf 1 > "$(printf 'p\\377')"; printf 2 > "$(printf 'p\\357\\277\\275')"`);
    const { checkpoint_id: first } = await service.checkpoint({ runtime_id: id });
    const added = await service.diff({ from_checkpoint_id: empty, to_checkpoint_id: first });
    expect(added.entries.map((change) => [change.path, change.change])).toEqual([['p\udcff', 'added'], ['p\ufffd', 'added']]);
    await run(id, 'echo more > other');
    const { checkpoint_id: second } = await service.checkpoint({ runtime_id: id });
    const diff = await service.diff({ from_checkpoint_id: first, to_checkpoint_id: second });
    expect(diff.entries.map((change) => change.path)).toEqual(['other']);

    const { runtime: child } = await service.checkout({ checkpoint_id: first, conversation_id: 'c2', sender_id: 'me' });
    expect(await run(child.runtime_id, `cat "$(printf 'p\\377')"; cat "$(printf 'p\\357\\277\\275')"; ls | od -An -tx1 | tr -s ' \\n' ' '`)).toBe('12 70 ef bf bd 0a 70 ff 0a ');
    await service.close({ runtime_id: child.runtime_id });
    for (const checkpoint_id of [second, first, empty]) await service.deleteCheckpointSnapshot({ checkpoint_id });
    await service.close({ runtime_id: id });
  });

  it('a tree deeper than PATH_MAX pauses, resumes whole and closes', async () => {
    const { service, id, run } = await session();
    const segment = 'd'.repeat(200);
    await run(id, `for i in $(seq 25); do mkdir ${segment} && cd ${segment}; done; printf deep > file`);
    await service.pause({ runtime_id: id });
    await service.resume({ runtime_id: id });
    expect(await run(id, `for i in $(seq 25); do cd ${segment}; done; cat file`)).toBe('deep');
    await service.close({ runtime_id: id });
  });
});
