import { posix } from 'node:path';
import { expect } from 'vitest';
import { conformanceArea } from './conformance-area';
import type { ProviderConformanceOptions } from './conformance-options';
import { allByteValues, expectRuntimectlError, expectSameBytes, pseudoRandomBytes, text, utf8 } from './expect-helpers';

const FIVE_MIB = 5 * 1024 * 1024;

/** stat, read_bytes, write_bytes, create_dir_all and temp_path. */
export function filesTests(options: ProviderConformanceOptions): void {
  conformanceArea(options, 'files', ({ harness, test }) => {
    test('write creates missing parent directories', async () => {
      const { backend } = await harness.createBackend();
      const result = await backend.writeBytes('deep/er/still/file.txt', utf8('nested'));
      expect(result).toEqual({ path: 'deep/er/still/file.txt', created: true });
      expect((await backend.stat('deep/er')).kind).toBe('directory');
      expect(text(await backend.readBytes('deep/er/still/file.txt'))).toBe('nested');
    });

    test('overwrite replaces the whole content and reports created:false', async () => {
      const { backend } = await harness.createBackend();
      await backend.writeBytes('file.txt', utf8('a much longer first version'));
      const result = await backend.writeBytes('file.txt', utf8('short'));
      expect(result.created).toBe(false);
      expect(text(await backend.readBytes('file.txt'))).toBe('short');
    });

    test('read of a missing file fails with path_not_found naming the path', async () => {
      const { backend } = await harness.createBackend();
      const error = await expectRuntimectlError(backend.readBytes('missing/nothing.txt'), 'path_not_found');
      expect(error.details).toEqual({ path: 'missing/nothing.txt' });
    });

    test('stat of a missing path reports exists:false instead of failing', async () => {
      const { backend } = await harness.createBackend();
      expect(await backend.stat('missing/nothing.txt')).toEqual({ exists: false, kind: null, sizeBytes: null, modifiedAtMs: null });
    });

    test('stat of a file reports its kind, size and modification time', async () => {
      const { backend } = await harness.createBackend();
      await backend.writeBytes('sized.bin', new Uint8Array(1234));
      const stat = await backend.stat('sized.bin');
      expect(stat).toMatchObject({ exists: true, kind: 'file', sizeBytes: 1234 });
      expect(typeof stat.modifiedAtMs).toBe('number');
    });

    test('all 256 byte values round-trip byte-exact', async () => {
      const { backend } = await harness.createBackend();
      const bytes = allByteValues();
      await backend.writeBytes('all-bytes.bin', bytes);
      expect([...(await backend.readBytes('all-bytes.bin'))]).toEqual([...bytes]);
    });

    test('a 5 MiB binary file round-trips byte-exact', async () => {
      const { backend } = await harness.createBackend();
      const bytes = pseudoRandomBytes(FIVE_MIB);
      await backend.writeBytes('large.bin', bytes);
      expectSameBytes(await backend.readBytes('large.bin'), bytes);
      expect((await backend.stat('large.bin')).sizeBytes).toBe(FIVE_MIB);
    });

    test('an empty file round-trips as zero bytes', async () => {
      const { backend } = await harness.createBackend();
      await backend.writeBytes('empty', new Uint8Array());
      expect((await backend.readBytes('empty')).byteLength).toBe(0);
      expect(await backend.stat('empty')).toMatchObject({ exists: true, kind: 'file', sizeBytes: 0 });
    });

    test('an absolute path inside the workspace names the same file as the relative one', async () => {
      const { backend } = await harness.createBackend();
      await backend.writeBytes(posix.join(backend.workspaceRoot, 'absolute.txt'), utf8('same file'));
      expect(text(await backend.readBytes('absolute.txt'))).toBe('same file');
    });

    test('create_dir_all creates nested directories and is idempotent', async () => {
      const { backend } = await harness.createBackend();
      await backend.createDirAll('one/two/three');
      await backend.createDirAll('one/two/three');
      await backend.createDirAll('one');
      expect((await backend.stat('one/two/three')).kind).toBe('directory');
    });

    test('create_dir_all over an existing file fails with invalid_request', async () => {
      const { backend } = await harness.createBackend();
      await backend.writeBytes('occupied', utf8('a file'));
      await expectRuntimectlError(backend.createDirAll('occupied'), 'invalid_request');
      expect(text(await backend.readBytes('occupied'))).toBe('a file');
    });

    test('write to a directory and read of a directory fail with invalid_request', async () => {
      const { backend } = await harness.createBackend();
      await backend.createDirAll('folder');
      await expectRuntimectlError(backend.writeBytes('folder', utf8('x')), 'invalid_request');
      await expectRuntimectlError(backend.readBytes('folder'), 'invalid_request');
    });

    test('temp_path creates a fresh empty file honouring prefix and suffix', async () => {
      const { backend } = await harness.createBackend();
      const first = await backend.tempPath({ kind: 'file', prefix: 'draft-', suffix: '.md' });
      const second = await backend.tempPath({ kind: 'file', prefix: 'draft-', suffix: '.md' });
      expect(first).not.toBe(second);
      expect(posix.basename(first).startsWith('draft-')).toBe(true);
      expect(first.endsWith('.md')).toBe(true);
      expect(await backend.stat(first)).toMatchObject({ exists: true, kind: 'file', sizeBytes: 0 });
      await backend.writeBytes(first, utf8('usable'));
      expect(text(await backend.readBytes(first))).toBe('usable');
    });

    test('temp_path of kind directory creates a directory', async () => {
      const { backend } = await harness.createBackend();
      const path = await backend.tempPath({ kind: 'directory', prefix: 'scratch-' });
      expect((await backend.stat(path)).kind).toBe('directory');
      await backend.writeBytes(posix.join(path, 'inside.txt'), utf8('ok'));
      expect(text(await backend.readBytes(posix.join(path, 'inside.txt')))).toBe('ok');
    });
  });
}
