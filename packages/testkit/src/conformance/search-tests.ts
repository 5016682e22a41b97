import { expect } from 'vitest';
import type { ProviderBackend } from '@runtimectl/core';
import { conformanceArea } from './conformance-area';
import type { ProviderConformanceOptions } from './conformance-options';
import { SEARCH_CASES, SEARCH_EMPTY_DIRECTORY, SEARCH_TREE } from './search-fixture';

export async function writeSearchTree(backend: ProviderBackend): Promise<void> {
  for (const [path, content] of Object.entries(SEARCH_TREE)) await backend.writeBytes(path, content);
  await backend.createDirAll(SEARCH_EMPTY_DIRECTORY);
}

/**
 * glob and grep give the same answers on every provider for the same tree: the fixed tree of
 * `search-fixture.ts` and its hand-written answers (core's `globFiles`/`grepFiles` rules).
 */
export function searchTests(options: ProviderConformanceOptions): void {
  conformanceArea(options, 'search', ({ harness, test, options: resolved }) => {
    for (const searchCase of SEARCH_CASES) {
      test(searchCase.name, async () => {
        const { backend } = await harness.createBackend();
        await writeSearchTree(backend);
        const answer = 'glob' in searchCase ? await backend.glob(searchCase.glob) : await backend.grep(searchCase.grep);
        expect(answer).toEqual(searchCase.expected);
      });
    }

    test('grep passes over a file larger than maxFileBytes, so a huge file never fills the daemon', async () => {
      // The cap is the daemon's read-file limit: grep must not read more of a file than read-file may.
      const { backend } = await harness.createBackend();
      const maxFileBytes = 64 * 1024;
      await backend.writeBytes('big/over.txt', new TextEncoder().encode(`needle\n${'x'.repeat(maxFileBytes)}`));
      await backend.writeBytes('big/at-cap.txt', new TextEncoder().encode(`needle\n${'x'.repeat(maxFileBytes - 7)}`));
      await backend.writeBytes('big/small.txt', new TextEncoder().encode('needle\n'));
      const request = { query: 'needle', baseDir: 'big', limit: 10, maxFileBytes } as const;
      expect(await backend.grep({ ...request, mode: 'files_with_matches' })).toEqual({ kind: 'paths', paths: ['big/at-cap.txt', 'big/small.txt'], truncated: false });
      expect(await backend.grep({ ...request, mode: 'content' })).toEqual({
        kind: 'matches',
        matches: [
          { path: 'big/at-cap.txt', line: 1, text: 'needle' },
          { path: 'big/small.txt', line: 1, text: 'needle' },
        ],
        truncated: false,
      });
    });

    test('files a command wrote are found by search (needs capabilities.posixShell)', async (context) => {
      context.skip(!resolved.capabilities.posixShell, 'needs capabilities.posixShell to write a file from a command');
      const { backend } = await harness.createBackend();
      await writeSearchTree(backend);
      const result = await backend.exec({ command: "printf 'found me\\n' > tree/from-exec.txt", maxOutputBytes: 1024, timeoutMs: 20_000 });
      expect(result.exitCode).toBe(0);
      expect(await backend.grep({ query: 'found me', baseDir: 'tree', mode: 'files_with_matches', limit: 10 })).toEqual({
        kind: 'paths',
        paths: ['tree/from-exec.txt'],
        truncated: false,
      });
    });
  });
}
