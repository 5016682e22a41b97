import { createHash } from 'node:crypto';
import { chmod, mkdir, symlink, writeFile } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createBackend, localProvider, useTemporaryDirectories } from './local-fixture';
import { workspaceManifest } from '../src/index';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('local workspace manifest', () => {
  const temporary = useTemporaryDirectories();

  it('lists directories, files (hashed) and symlinks (with their target, never followed) with their modes; FIFOs are left out', async () => {
    const { provider } = await localProvider(temporary);
    const { backend, directory: root } = await createBackend(provider);
    await mkdir(join(root, 'bin'));
    await writeFile(join(root, 'bin/run.sh'), '#!/bin/sh\n');
    await chmod(join(root, 'bin/run.sh'), 0o755);
    await symlink('/etc/passwd', join(root, 'host-link'));
    execFileSync('mkfifo', [join(root, 'pipe')]);
    const entries = (await backend.manifest!()).sort((a, b) => (a.path < b.path ? -1 : 1));
    expect(entries).toStrictEqual([
      { path: 'bin', kind: 'directory', mode: expect.any(Number), size: 0, target: null, hash: null },
      { path: 'bin/run.sh', kind: 'file', mode: 0o755, size: 10, target: null, hash: sha256('#!/bin/sh\n') },
      { path: 'host-link', kind: 'symlink', mode: 0o777, size: 11, target: '/etc/passwd', hash: null },
    ]);
  });

  it('takes the hash of a file whose stat the known hashes vouch for, without reading it', async () => {
    const root = await temporary('manifest');
    await writeFile(join(root, 'known.txt'), 'real content');
    await writeFile(join(root, 'other.txt'), 'other');
    const vouched = 'f'.repeat(64);
    const entries = await workspaceManifest(root, { known: (path) => (path === 'known.txt' ? vouched : null) });
    expect(entries.find(({ path }) => path === 'known.txt')?.hash).toBe(vouched);
    expect(entries.find(({ path }) => path === 'other.txt')?.hash).toBe(sha256('other'));
  });
});
