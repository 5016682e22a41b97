import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { buildTrees, MemoryRuntimeStore, RuntimeService } from '@runtimectl/core';
import { parseManifestOutput } from '../src/sandbox-manifest';
import { useEmulator, useProviders } from './support/emulator-fixture';

// The manifest is one command in the sandbox (find -printf + sha256sum -z, NUL-separated,
// base64 on the way out), run through the real SDK against the emulator.
const emulator = await useEmulator();
const provider = useProviders(emulator);

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('e2b manifests', () => {
  it('lists names with spaces and newlines, symlinks with their targets, and leaves FIFOs out, in one command', async () => {
    const e2b = provider();
    const backend = await e2b.create({ backendId: 'bkd_manifest', runtimeId: 'rt', options: {}, labels: {} });
    try {
      const made = await backend.exec({
        command: [
          "mkdir -p 'm/a dir'",
          "printf 'one' > 'm/a dir/spaced name.txt'",
          "printf 'two' > m/new$'\\n'line",
          'ln -s ../outside m/link',
          'mkfifo m/pipe',
          'chmod 640 m/a\\ dir/spaced\\ name.txt',
        ].join(' && '),
        maxOutputBytes: 4096,
      });
      expect(made.exitCode).toBe(0);
      await emulator.reset();
      const entries = (await backend.manifest!()).filter(({ path }) => path === 'm' || path.startsWith('m/')).sort((a, b) => (a.path < b.path ? -1 : 1));
      expect(entries).toStrictEqual([
        { path: 'm', kind: 'directory', mode: expect.any(Number), size: 0, target: null, hash: null },
        { path: 'm/a dir', kind: 'directory', mode: expect.any(Number), size: 0, target: null, hash: null },
        { path: 'm/a dir/spaced name.txt', kind: 'file', mode: 0o640, size: 3, target: null, hash: sha256('one') },
        { path: 'm/link', kind: 'symlink', mode: 0o777, size: 10, target: '../outside', hash: null },
        { path: 'm/new\nline', kind: 'file', mode: expect.any(Number), size: 3, target: null, hash: sha256('two') },
      ]);
      // One process started in the sandbox, no file API calls.
      expect((await emulator.state()).calls).toMatchObject({ process: 1, files: 0, filesystem: 0 });
    } finally {
      await e2b.release({ backendId: 'bkd_manifest', resource: backend.resource });
    }
  });

  it('a checkpoint through core records the manifest root of the sandbox workspace', async () => {
    const runtimes = new RuntimeService({ store: new MemoryRuntimeStore(), providers: [provider()], defaultProvider: 'e2b', installationId: 'manifests' });
    const { runtime } = await runtimes.open({ conversation_id: 'c', sender_id: 's' });
    await runtimes.writeFile({ runtime_id: runtime.runtime_id, path: 'state.txt', content_base64: Buffer.from('v1').toString('base64') });
    const checkpoint = await runtimes.checkpoint({ runtime_id: runtime.runtime_id });
    expect(checkpoint.manifest_root).toMatch(/^[0-9a-f]{64}$/);
    await runtimes.close({ runtime_id: runtime.runtime_id });
  });

  it('refuses output it cannot read whole rather than recording a wrong manifest', () => {
    const listing = (text: string) => Buffer.from(text).toString('base64');
    expect(() => parseManifestOutput(listing('f\x00644\x003\x00a\x00\x00H\x00'))).toThrow(/could not be read/);
    expect(() => parseManifestOutput(listing('x\x00644\x00'))).toThrow(/unreadable/);
    const hashed = parseManifestOutput(listing(`f\x00644\x003\x00a\x00\x00H\x00${sha256('one')}  ./a\x00`));
    expect(buildTrees(hashed).root).toMatch(/^[0-9a-f]{64}$/);
  });
});
