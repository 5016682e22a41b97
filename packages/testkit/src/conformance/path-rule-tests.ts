import { posix } from 'node:path';
import { expect } from 'vitest';
import type { ProviderBackend } from '@runtimectl/core';
import { conformanceArea } from './conformance-area';
import type { ProviderConformanceOptions } from './conformance-options';
import { expectRuntimectlError, text, utf8 } from './expect-helpers';

const run = (backend: ProviderBackend, command: string, cwd: string) => backend.exec({ command, cwd, maxOutputBytes: 4096, timeoutMs: 20_000 });

/** Paths that leave the workspace: climbing out with `..`, or absolute elsewhere. */
function escapingPaths(backend: ProviderBackend): string[] {
  return ['../escaped.txt', 'inside/../../escaped.txt', posix.join(posix.dirname(backend.workspaceRoot), 'escaped.txt')];
}

/**
 * The one path rule every provider follows, so a caller written against one behaves the same on
 * another: a path (relative to the workspace, or absolute) that leaves the workspace is refused
 * with `invalid_request` naming it, by every file call and as exec's cwd; a cwd that does not
 * exist is `path_not_found` naming it; a cwd that is a file is `invalid_request`.
 */
export function pathRuleTests(options: ProviderConformanceOptions): void {
  conformanceArea(options, 'path rule', ({ harness, test }) => {
    test('a path leaving the workspace is refused with invalid_request by write, read, stat and create_dir_all', async () => {
      const { backend } = await harness.createBackend();
      for (const path of escapingPaths(backend)) {
        const refused = await expectRuntimectlError(backend.writeBytes(path, utf8('must not land outside')), 'invalid_request');
        expect(refused.details).toMatchObject({ path });
        await expectRuntimectlError(backend.readBytes(path), 'invalid_request');
        await expectRuntimectlError(backend.stat(path), 'invalid_request');
        await expectRuntimectlError(backend.createDirAll(path), 'invalid_request');
      }
    });

    test('a path with .. that stays inside the workspace names the file it leads to', async () => {
      const { backend } = await harness.createBackend();
      await backend.writeBytes('inside/../kept.txt', utf8('kept'));
      expect(text(await backend.readBytes('kept.txt'))).toBe('kept');
      expect((await backend.stat('inside')).exists).toBe(false);
    });

    test('exec with a cwd that does not exist fails with path_not_found naming it, and runs nothing', async () => {
      const { backend } = await harness.createBackend();
      const error = await expectRuntimectlError(run(backend, 'echo ran', 'missing/dir'), 'path_not_found');
      expect(error.details).toEqual({ path: 'missing/dir' });
    });

    test('exec with a cwd that is a file fails with invalid_request naming it', async () => {
      const { backend } = await harness.createBackend();
      await backend.writeBytes('plain.txt', utf8('not a directory'));
      const error = await expectRuntimectlError(run(backend, 'echo ran', 'plain.txt'), 'invalid_request');
      expect(error.details).toMatchObject({ path: 'plain.txt' });
    });

    test('exec with a cwd leaving the workspace fails with invalid_request', async () => {
      const { backend } = await harness.createBackend();
      for (const cwd of ['..', posix.dirname(backend.workspaceRoot)]) {
        const error = await expectRuntimectlError(run(backend, 'echo ran', cwd), 'invalid_request');
        expect(error.details).toMatchObject({ path: cwd });
      }
    });
  });
}
