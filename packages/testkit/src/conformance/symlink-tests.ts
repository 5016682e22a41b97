import { posix } from 'node:path';
import { expect, type TestContext } from 'vitest';
import { providerCapabilities, RuntimectlError, type ProviderBackend } from '@runtimectl/core';
import { conformanceArea } from './conformance-area';
import type { ProviderConformanceOptions } from './conformance-options';
import { collect, text, utf8 } from './expect-helpers';
import { makeOutsideDirectory, type OutsideDirectory } from './outside-directory';

/**
 * `ProviderBackend`'s file API cannot make a symbolic link (it has no such call), so links come
 * from commands (`ln -s`, needing `posixShell`) and, for the checkout and resume cases, through a
 * snapshot that holds one. Without a POSIX shell every case skips.
 */
const NEEDS_SHELL = 'needs a POSIX shell (posixShell) to plant symbolic links: the file API cannot make one';
/** Enough `..` to reach `/` from any workspace (more at `/` stay at `/`). */
const UP = '../'.repeat(40);

/** The links each case plants, by workspace path, and where they lead out. */
function plantedLinks(outside: string): Record<string, string> {
  const relative = `${UP}${outside.slice(1)}`;
  return {
    'abs-file': `${outside}/sentinel.txt`,
    'rel-file': `${relative}/sentinel.txt`,
    'sub/rel-file': `${relative}/sentinel.txt`,
    'abs-dir': outside,
    'rel-dir': relative,
    'abs-missing': `${outside}/created-through-a-link.txt`,
  };
}
/** Links to a file outside, as the last component. */
const FILE_LINKS = ['abs-file', 'rel-file', 'sub/rel-file'];
/** Links to a directory outside, as the last component. */
const DIRECTORY_LINKS = ['abs-dir', 'rel-dir'];
/** Paths that go through a link to a directory outside. */
const THROUGH_LINKS = ['abs-dir/sentinel.txt', 'rel-dir/sentinel.txt', 'abs-dir/inner/sentinel.txt'];

const quote = (value: string) => `'${value.replaceAll("'", `'\\''`)}'`;

/** `ln -s` of every planted link, as one command. */
function plantCommand(outside: string): string {
  const links = Object.entries(plantedLinks(outside)).map(([name, target]) => `ln -s ${quote(target)} ${quote(name)}`);
  return ['mkdir -p sub', ...links].join(' && ');
}

async function plantLinks(backend: ProviderBackend, outside: OutsideDirectory): Promise<void> {
  const made = await backend.exec({ command: plantCommand(outside.path), maxOutputBytes: 4096, timeoutMs: 20_000 });
  expect(made.exitCode, `planting the links: ${text(made.stderr)}`).toBe(0);
}

/**
 * What an operation through a link leading out may do: be refused with `invalid_request` (the
 * path rule's code), or answer — acting on the link itself. Neither answer nor error may hold
 * the content of what the link points at; any other error fails. With `filesInSandbox` the link
 * leads only within the backend's sandbox, so following it there is allowed too: an answer, or
 * `path_not_found` for a target the sandbox lacks.
 */
function linkRule(outside: OutsideDirectory, filesInSandbox: boolean) {
  const allowed = filesInSandbox ? ['invalid_request', 'path_not_found'] : ['invalid_request'];
  const refusedOrAnswered = async <T>(work: Promise<T>, what: string): Promise<{ refused: true } | { refused: false; value: T }> => {
    try {
      const value = await work;
      outside.expectNotIn(value, `${what}: the answer`);
      return { refused: false, value };
    } catch (error) {
      outside.expectNotIn(error instanceof Error ? error.message : String(error), `${what}: the error`);
      if (!RuntimectlError.isInstance(error)) throw new Error(`${what}: expected a refusal with invalid_request, got ${String(error)}`, { cause: error });
      expect(allowed, `${what}: ${error.message}`).toContain(error.code);
      return { refused: true };
    }
  };
  return {
    outside,
    /** Whether an answer must describe the link itself (not what it leads to). */
    strict: !filesInSandbox,
    refusedOrAnswered,
    async expectRefused(work: Promise<unknown>, what: string): Promise<void> {
      const outcome = await refusedOrAnswered(work, what);
      if (!filesInSandbox) expect(outcome.refused, `${what} answered instead of refusing`).toBe(true);
    },
  };
}
type LinkRule = ReturnType<typeof linkRule>;

/**
 * Symbolic links leading out of the workspace — planted by a command, as an absolute path to a
 * host directory and as a `../..` chain, or arriving with a snapshot — at every file operation,
 * at checkout, resume and release. Each operation through such a link is refused with
 * `invalid_request` or acts on the link itself; the host directory's sentinel is never read (its
 * content never appears in an answer or an error), written, created or removed. A provider
 * whose file API acts inside its own sandbox (`filesInSandbox`) is held to the host half only.
 */
export function symlinkTests(options: ProviderConformanceOptions): void {
  conformanceArea(options, 'symbolic links leading out', ({ harness, options: resolved, test }) => {
    /** Skips without a shell; else a backend holding the planted links and the directory they lead to. */
    async function linkedBackend(context: TestContext) {
      context.skip(!resolved.capabilities.posixShell, NEEDS_SHELL);
      const outside = makeOutsideDirectory();
      context.onTestFinished(() => outside.remove());
      const created = await harness.createBackend();
      await plantLinks(created.backend, outside);
      return { ...created, outside, rule: linkRule(outside, resolved.capabilities.filesInSandbox) };
    }

    /** Read and export through every link, refused (see `linkRule`). */
    async function expectReadsRefused(backend: ProviderBackend, rule: LinkRule, where: string): Promise<void> {
      for (const path of [...FILE_LINKS, ...THROUGH_LINKS]) {
        await rule.expectRefused(backend.readBytes(path), `${where}read of ${path}`);
        await rule.expectRefused(
          backend.export(path).then(async (exported) => ({ ...exported, content: await collect(exported.content) })),
          `${where}export of ${path}`,
        );
      }
    }

    test('read and export through a link leading out are refused, never answering what it points at', async (context) => {
      const { backend, outside, rule } = await linkedBackend(context);
      await expectReadsRefused(backend, rule, '');
      outside.expectUntouched();
    });

    test('stat of a link leading out describes the link itself or is refused; through one it is refused', async (context) => {
      const { backend, outside, rule } = await linkedBackend(context);
      for (const path of [...FILE_LINKS, ...DIRECTORY_LINKS]) {
        const outcome = await rule.refusedOrAnswered(backend.stat(path), `stat of ${path}`);
        if (!outcome.refused && rule.strict) expect(outcome.value.kind, `stat of ${path} answered for the link itself`).toBe('symlink');
      }
      for (const path of THROUGH_LINKS) await rule.expectRefused(backend.stat(path), `stat of ${path}`);
      outside.expectUntouched();
    });

    test('write through a link leading out is refused or replaces the link itself; nothing outside is written or created', async (context) => {
      const { backend, outside, rule } = await linkedBackend(context);
      for (const path of [...FILE_LINKS, 'abs-missing']) {
        const outcome = await rule.refusedOrAnswered(backend.writeBytes(path, utf8('written in the workspace')), `write of ${path}`);
        if (!outcome.refused) expect(text(await backend.readBytes(path)), `${path} is now a file in the workspace`).toBe('written in the workspace');
      }
      for (const path of [...THROUGH_LINKS, 'abs-dir/new.txt', 'rel-dir/inner/new.txt']) {
        await rule.expectRefused(backend.writeBytes(path, utf8('must not land outside')), `write of ${path}`);
      }
      outside.expectUntouched();
    });

    test('create_dir_all through a link leading out is refused and creates nothing outside', async (context) => {
      const { backend, outside, rule } = await linkedBackend(context);
      for (const path of DIRECTORY_LINKS) await rule.refusedOrAnswered(backend.createDirAll(path), `create_dir_all of ${path}`);
      for (const path of ['abs-dir/made', 'rel-dir/made/deeper', 'abs-dir/inner']) {
        await rule.expectRefused(backend.createDirAll(path), `create_dir_all of ${path}`);
      }
      outside.expectUntouched();
    });

    test('temp_path whose temporary directory was swapped for a link leading out creates nothing outside', async (context) => {
      const { backend, outside, rule } = await linkedBackend(context);
      const first = await backend.tempPath({ kind: 'file' });
      const directory = posix.dirname(posix.isAbsolute(first) ? posix.relative(backend.workspaceRoot, first) : first);
      context.skip(directory === '.' || directory === '', 'temp_path creates its files in the workspace root: no directory to swap for a link');
      const swapped = await backend.exec({ command: `rm -rf ${quote(directory)} && ln -s ${quote(outside.path)} ${quote(directory)}`, maxOutputBytes: 4096, timeoutMs: 20_000 });
      expect(swapped.exitCode, text(swapped.stderr)).toBe(0);
      for (const kind of ['file', 'directory'] as const) await rule.refusedOrAnswered(backend.tempPath({ kind, prefix: 'swapped-' }), `temp_path of kind ${kind}`);
      outside.expectUntouched();
    });

    test('exec with a cwd through a link leading out is refused', async (context) => {
      const { backend, outside, rule } = await linkedBackend(context);
      for (const cwd of [...DIRECTORY_LINKS, 'abs-dir/inner']) {
        await rule.expectRefused(backend.exec({ command: 'cat sentinel.txt; ls', cwd, maxOutputBytes: 4096, timeoutMs: 20_000 }), `exec in ${cwd}`);
      }
      outside.expectUntouched();
    });

    test('glob and grep never list or read what a link leading out points at', async (context) => {
      const { backend, outside, rule } = await linkedBackend(context);
      const listed = await rule.refusedOrAnswered(backend.glob({ pattern: '**', limit: 1000 }), 'glob of the workspace');
      if (!listed.refused && listed.value.kind === 'paths') {
        expect(listed.value.paths.filter((path) => DIRECTORY_LINKS.some((link) => path.startsWith(`${link}/`)))).toEqual([]);
      }
      for (const mode of ['content', 'files_with_matches'] as const) {
        await rule.refusedOrAnswered(backend.grep({ query: outside.sentinel, mode, limit: 100 }), `grep (${mode}) of the workspace`);
      }
      for (const baseDir of [...DIRECTORY_LINKS, 'abs-dir/inner']) {
        const globbed = await rule.refusedOrAnswered(backend.glob({ pattern: '**', baseDir, limit: 100 }), `glob under ${baseDir}`);
        if (!globbed.refused && globbed.value.kind === 'paths') expect(globbed.value.paths, `glob under ${baseDir}`).toEqual([]);
        await rule.refusedOrAnswered(backend.grep({ query: outside.sentinel, baseDir, mode: 'files_with_matches', limit: 100 }), `grep under ${baseDir}`);
      }
      outside.expectUntouched();
    });

    test('the manifest records a link leading out as a link with its target, never what it points at', async (context) => {
      const { backend, outside } = await linkedBackend(context);
      context.skip(!backend.manifest, `provider ${harness.provider.providerId} has no manifest method, so this does not apply`);
      const entries = await backend.manifest!();
      outside.expectNotIn(entries, 'the manifest');
      for (const [path, target] of Object.entries(plantedLinks(outside.path))) {
        expect(entries.find((entry) => entry.path === path), `the manifest entry of ${path}`).toMatchObject({ kind: 'symlink', target });
      }
      expect(entries.filter((entry) => DIRECTORY_LINKS.some((link) => entry.path.startsWith(`${link}/`)))).toEqual([]);
      outside.expectUntouched();
    });

    test('a checkout of a snapshot holding links leading out reads, writes and follows nothing outside', async (context) => {
      const capabilities = providerCapabilities(harness.provider);
      context.skip(!capabilities.snapshot || !capabilities.checkout, 'needs checkpoint and checkout methods');
      const { backend, request, outside, rule } = await linkedBackend(context);
      const snapshot = await harness.provider.checkpoint!(backend, { labels: harness.snapshotLabels(request) });
      outside.expectNotIn(snapshot, 'the snapshot');
      const readSnapshotFile = harness.provider.readSnapshotFile;
      if (readSnapshotFile) {
        for (const path of FILE_LINKS) await rule.expectRefused(readSnapshotFile(snapshot.snapshotId, path), `read of ${path} in the snapshot`);
      }
      const { backend: child } = await harness.checkoutBackend(snapshot.snapshotId);
      await expectReadsRefused(child, rule, 'the checkout: ');
      for (const path of THROUGH_LINKS) await rule.expectRefused(child.writeBytes(path, utf8('must not land outside')), `the checkout: write of ${path}`);
      if (child.manifest) outside.expectNotIn(await child.manifest(), "the checkout's manifest");
      outside.expectUntouched();
    });

    test('pause and resume of a runtime holding links leading out read, write and follow nothing outside', async (context) => {
      context.skip(!resolved.capabilities.posixShell, NEEDS_SHELL);
      context.skip(!providerCapabilities(harness.provider).pause, `provider ${harness.provider.providerId} cannot pause, so this does not apply`);
      const outside = makeOutsideDirectory();
      context.onTestFinished(() => outside.remove());
      const rule = linkRule(outside, resolved.capabilities.filesInSandbox);
      const service = harness.createService();
      const { runtime } = await service.open({ conversation_id: 'conformance', sender_id: 'symlinks' });
      const runtime_id = runtime.runtime_id;
      expect((await service.exec({ runtime_id, command: plantCommand(outside.path) })).exit_code).toBe(0);
      await service.pause({ runtime_id });
      await service.resume({ runtime_id });
      for (const path of [...FILE_LINKS, ...THROUGH_LINKS]) await rule.expectRefused(service.readFile({ runtime_id, path }), `read of ${path} after resume`);
      await rule.expectRefused(service.writeFile({ runtime_id, path: 'abs-dir/new.txt', content_base64: '' }), 'write through abs-dir after resume');
      outside.expectUntouched();
    });

    test('release of a backend holding links leading out removes nothing outside', async (context) => {
      const { request, outside } = await linkedBackend(context);
      await harness.provider.release(request);
      outside.expectUntouched();
    });
  });
}
