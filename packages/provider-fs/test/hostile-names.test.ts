import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemoryRuntimeStore, RuntimeService } from '@runtimectl/core';
import { createFsProvider, type FsProviderSettings } from '../src/index';
import { useTemporaryDirectories } from './fs-fixture';

const text = (base64: string) => Buffer.from(base64, 'base64').toString('utf8');

const asRoot = process.getuid?.() === 0;

// Issue 34's hostile review, as an agent does it: with shell commands, through core. On both
// snapshot stores (the layers store mounts overlayfs: root only; with its sandbox, so a
// checkpoint with nothing running seals the upper directory by rename).
describe.each(['copy', 'layers'] as const)('hostile names and depths through core on the fs provider (%s store)', (snapshotStore) => {
  const temporary = useTemporaryDirectories();
  const itOnThisStore = it.skipIf(snapshotStore === 'layers' && !asRoot);

  async function session(settings: Pick<FsProviderSettings, 'flattenPastLayers' | 'flattenFailed'> = {}) {
    const dir = await temporary('hostile-names');
    const fs = createFsProvider({ root: join(dir, 'workspaces'), snapshots: join(dir, 'snapshots'), isolation: snapshotStore === 'layers' ? 'auto' : 'none', snapshotStore, ...settings });
    const service = new RuntimeService({ store: new MemoryRuntimeStore(), providers: [fs], defaultProvider: 'fs' });
    const { runtime } = await service.open({ conversation_id: 'c1', sender_id: 'me' });
    const run = async (runtime_id: string, command: string) => {
      const ran = await service.exec({ runtime_id, command, timeout_ms: 20_000 });
      expect(ran.exit_code, text(ran.stderr_base64)).toBe(0);
      return text(ran.stdout_base64);
    };
    return { service, fs, dir, id: runtime.runtime_id, run };
  }

  itOnThisStore('a non-UTF-8 name and the name it decodes to survive checkpoint, diff, checkout and every later delete-snapshot', async () => {
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

  // bash's `cd` makes an absolute path and fails past PATH_MAX: the tree is built from chains of
  // ten 200-byte names moved into one another (every path given stays short), and read and
  // written with `find -execdir` (which walks by descriptor).
  const deepTree = [
    'seg=$(printf "d%.0s" $(seq 200)); chain() { p=$1; for i in $(seq 10); do p=$p/$seg; done; mkdir -p $p; echo $p; }',
    'a=$(chain a); b=$(chain b); c=$(chain c); printf deep > $c/file; printf gone > $c/gone; mkdir $c/sub; printf one > $c/sub/one',
    'mv c/$seg $b/ && mv b/$seg $a/ && rmdir b c',
  ].join('; ');
  const deepDirectory = `a/${Array(30).fill('d'.repeat(200)).join('/')}`;
  const readDeepFile = 'find a -name file -execdir cat {} \\;';

  itOnThisStore('a tree deeper than PATH_MAX pauses, resumes whole, checkpoints changes deep in it (a directory removed and made again included) and closes', async () => {
    const { service, id, run } = await session();
    await run(id, deepTree);
    await service.pause({ runtime_id: id });
    await service.resume({ runtime_id: id });
    expect(await run(id, readDeepFile)).toBe('deep');
    const { checkpoint_id: before } = await service.checkpoint({ runtime_id: id });
    await run(id, `find a -name file -execdir sh -c 'printf deeper > file; rm gone; rm -r sub; mkdir sub; printf two > sub/two' \\;`);
    const { checkpoint_id: after } = await service.checkpoint({ runtime_id: id });
    const diff = await service.diff({ from_checkpoint_id: before, to_checkpoint_id: after });
    expect(diff.entries.map((change) => [change.path, change.change])).toEqual([
      [`${deepDirectory}/file`, 'modified'],
      [`${deepDirectory}/gone`, 'removed'],
      [`${deepDirectory}/sub/one`, 'removed'],
      [`${deepDirectory}/sub/two`, 'added'],
    ]);
    const { runtime: child } = await service.checkout({ checkpoint_id: after, conversation_id: 'c2', sender_id: 'me' });
    expect(await run(child.runtime_id, readDeepFile)).toBe('deeper');
    await service.close({ runtime_id: child.runtime_id });
    await service.close({ runtime_id: id });
  });

  // With a job running, a layered checkpoint copies the writable layer, and a chain past its bound
  // is flattened by copying its merged tree: `cp -a` builds whole path names and fails past
  // PATH_MAX, so both copies go by descriptor where the tree is that deep.
  itOnThisStore('a tree deeper than PATH_MAX flattens, checkpoints while a background job runs, and every checkpoint checks out whole', async () => {
    const failures: Error[] = [];
    const { service, fs, dir, id, run } = await session({ flattenPastLayers: 2, flattenFailed: (error) => failures.push(error) });
    await run(id, deepTree);
    const checkpoints: string[] = [];
    for (const round of ['1', '2', '3']) {
      // Rounds 1 and 2 seal by rename (the chain grows past its bound: flattened); round 3 by copy.
      if (round === '3') await run(id, 'sleep 120 > /dev/null 2>&1 &');
      await run(id, `find a -name file -execdir sh -c 'printf ${round} > file' \\;`);
      checkpoints.push((await service.checkpoint({ runtime_id: id })).checkpoint_id);
      await fs.flattened();
    }
    expect(failures.map((error) => error.message)).toEqual([]);
    if (snapshotStore === 'layers') {
      const records = await Promise.all((await readdir(join(dir, 'snapshots', 'layers'))).map(async (layer) => JSON.parse(await readFile(join(dir, 'snapshots', 'layers', layer, 'layer.json'), 'utf8'))));
      expect(records.some((record) => record.flattenedAs !== undefined), 'a chain was flattened').toBe(true);
    }
    for (const [index, checkpoint_id] of checkpoints.entries()) {
      const { runtime: child } = await service.checkout({ checkpoint_id, conversation_id: `c${index}`, sender_id: 'me' });
      expect(await run(child.runtime_id, readDeepFile)).toBe(String(index + 1));
      expect(await run(child.runtime_id, 'find a -name sub -execdir cat sub/one \\;')).toBe('one');
      await service.close({ runtime_id: child.runtime_id });
    }
    await service.close({ runtime_id: id });
  });
});
