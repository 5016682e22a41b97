import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RuntimectlError, type ProviderBackend } from '@runtimectl/provider';
import { createDirectoryProvider } from '../src/index.js';

const stateDirs: string[] = [];
afterEach(async () => {
  await Promise.all(stateDirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function backendWithLinks(): Promise<ProviderBackend> {
  const stateDir = await mkdtemp(join(tmpdir(), 'symlinks-'));
  stateDirs.push(stateDir);
  const provider = createDirectoryProvider({
    providerId: 'symlinks',
    workspacesDir: join(stateDir, 'workspaces'),
    snapshotsDir: join(stateDir, 'snapshots'),
    commandTimeoutMs: 10_000,
  });
  const backend = await provider.create({ backendId: 'bkd_symlinks', runtimeId: 'symlinks', options: {}, labels: {} });
  const made = await backend.exec({
    command: `mkdir real && echo inside > real/file && ln -s real inner && ln -s ${stateDir} outer && ln -s /nowhere/at/all dangling`,
    maxOutputBytes: 1024,
  });
  expect(made.exitCode).toBe(0);
  return backend;
}

const codeOf = (work: Promise<unknown>) => work.then(() => 'resolved', (error: unknown) => (RuntimectlError.isInstance(error) ? error.code : String(error)));

// The file API follows a symbolic link only while it stays inside the workspace.
describe('symbolic links in a workspace', () => {
  it('a link inside the workspace is followed', async () => {
    const backend = await backendWithLinks();
    expect(new TextDecoder().decode(await backend.readBytes('inner/file'))).toBe('inside\n');
    expect((await backend.stat('inner')).kind).toBe('symlink');
  });

  it('a link that leaves the workspace is refused by read, write, create_dir_all and exec, and nothing lands outside', async () => {
    const backend = await backendWithLinks();
    expect(await codeOf(backend.readBytes('outer/workspaces'))).toBe('invalid_request');
    expect(await codeOf(backend.writeBytes('outer/escaped.txt', new Uint8Array([1])))).toBe('invalid_request');
    expect(await codeOf(backend.createDirAll('outer/escaped'))).toBe('invalid_request');
    expect(await codeOf(backend.exec({ command: 'pwd', cwd: 'outer', maxOutputBytes: 1024 }))).toBe('invalid_request');
    expect(await codeOf(backend.export('outer'))).toBe('invalid_request');
    const listed = await backend.exec({ command: 'ls outer', maxOutputBytes: 1024 });
    expect(new TextDecoder().decode(listed.stdout)).not.toContain('escaped');
  });

  it('a write through a link that leads nowhere is refused instead of creating its target', async () => {
    const backend = await backendWithLinks();
    expect(await codeOf(backend.writeBytes('dangling', new Uint8Array([1])))).toBe('invalid_request');
    expect(await codeOf(backend.writeBytes('dangling/below.txt', new Uint8Array([1])))).toBe('invalid_request');
  });
});
