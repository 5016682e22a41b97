/** File metadata (envd ≥ 0.6.2): `X-Metadata-*` uploads kept as `user.e2b.*` extended attributes. */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { Sandbox } from 'e2b';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useEmulator } from './support/emulator-fixture.js';

const run = promisify(execFile);
const fixture = useEmulator();
let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await Sandbox.create(fixture.sdk);
});
afterAll(async () => {
  await sandbox.kill();
});

async function hostPath(of: Sandbox, sandboxPath: string): Promise<string> {
  const entry = (await fixture.emulator.state()).sandboxes.find((item) => item.sandboxId === of.sandboxId);
  return path.join(entry?.directory ?? '/nonexistent', sandboxPath);
}

/** The host file's `user.*` attributes, read independently of the emulator. */
async function extendedAttributes(file: string): Promise<Record<string, string>> {
  const script = 'import json, os, sys; p = sys.argv[1]; print(json.dumps({n: os.getxattr(p, n).decode() for n in os.listxattr(p)}))';
  const { stdout } = await run('python3', ['-c', script, file]);
  return JSON.parse(stdout) as Record<string, string>;
}

describe('file metadata', () => {
  it('the emulator reports envd 0.6.4, so the SDK sends metadata', async () => {
    expect((await sandbox.getInfo()).envdVersion).toBe('0.6.4');
  });

  it('is stored as user.e2b.* extended attributes on the file itself and surfaced by getInfo and list', async () => {
    const info = await sandbox.files.write('meta/a.txt', 'a', { metadata: { author: 'mish', purpose: 'upload' } });
    expect(info.metadata).toEqual({ author: 'mish', purpose: 'upload' });
    expect(await extendedAttributes(await hostPath(sandbox, '/home/user/meta/a.txt'))).toEqual({ 'user.e2b.author': 'mish', 'user.e2b.purpose': 'upload' });
    expect((await sandbox.files.getInfo('meta/a.txt')).metadata).toEqual({ author: 'mish', purpose: 'upload' });
    const listed = await sandbox.files.list('meta');
    expect(listed.find((entry) => entry.name === 'a.txt')?.metadata).toEqual({ author: 'mish', purpose: 'upload' });
  });

  it('applies to every file of a multipart upload and to an octet-stream upload', async () => {
    const infos = await sandbox.files.writeFiles(
      [
        { path: 'meta/m1.txt', data: '1' },
        { path: 'meta/m2.txt', data: '2' },
      ],
      { metadata: { source: 'suite' } },
    );
    expect(infos.map((info) => info.metadata)).toEqual([{ source: 'suite' }, { source: 'suite' }]);
    const octet = await sandbox.files.write('meta/octet.txt', 'o', { metadata: { kind: 'octet' }, useOctetStream: true });
    expect(octet.metadata).toEqual({ kind: 'octet' });
    expect((await sandbox.files.getInfo('meta/m2.txt')).metadata).toEqual({ source: 'suite' });
  });

  it('an overwrite replaces it: without metadata nothing stale is left', async () => {
    await sandbox.files.write('meta/over.txt', 'first', { metadata: { author: 'mish', old: 'yes' } });
    await sandbox.files.write('meta/over.txt', 'second', { metadata: { author: 'other' } });
    expect((await sandbox.files.getInfo('meta/over.txt')).metadata).toEqual({ author: 'other' });
    const plain = await sandbox.files.write('meta/over.txt', 'third');
    expect(plain.metadata).toBeUndefined();
    expect((await sandbox.files.getInfo('meta/over.txt')).metadata).toBeUndefined();
  });

  it('follows the file through a rename, and shows attributes a command set', async () => {
    await sandbox.files.write('meta/old-name.txt', 'x', { metadata: { stage: 'renamed' } });
    expect((await sandbox.files.rename('meta/old-name.txt', 'meta/new-name.txt')).metadata).toEqual({ stage: 'renamed' });
    await sandbox.files.write('meta/by-command.txt', 'x');
    const { stdout } = await sandbox.commands.run('realpath meta/by-command.txt');
    await sandbox.commands.run(`python3 -c "import os; os.setxattr('${stdout.trim()}', 'user.e2b.author', b'cmd')"`);
    expect((await sandbox.files.getInfo('meta/by-command.txt')).metadata).toEqual({ author: 'cmd' });
  });

  it('survives a snapshot and a fork: both copies keep the attributes', async () => {
    await sandbox.files.write('meta/kept.txt', 'k', { metadata: { kept: 'yes' } });
    const snapshot = await sandbox.createSnapshot();
    const restored = await Sandbox.create(snapshot.snapshotId, fixture.sdk);
    const forks = await sandbox.fork();
    try {
      expect((await restored.files.getInfo('meta/kept.txt')).metadata).toEqual({ kept: 'yes' });
      const fork = forks[0];
      expect(fork).toBeInstanceOf(Sandbox);
      expect((await (fork as Sandbox).files.getInfo('meta/kept.txt')).metadata).toEqual({ kept: 'yes' });
    } finally {
      await restored.kill();
      await Promise.all(forks.map((fork) => (fork instanceof Sandbox ? fork.kill() : undefined)));
      await Sandbox.deleteSnapshot(snapshot.snapshotId, fixture.sdk);
    }
  });
});
