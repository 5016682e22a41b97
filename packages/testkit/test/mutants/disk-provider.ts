import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { cp, lstat, mkdir, readdir, readFile, realpath, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve } from 'node:path';
import {
  globFiles,
  grepFiles,
  InvalidRequestError,
  PathNotFoundError,
  type BackendProviderV1,
  type ExecRequest,
  type ExecResult,
  type ProviderBackend,
  type SearchTree,
} from '@runtimectl/core';

/**
 * The flaws a mutant has; none makes the correct control. A mutant of the symlink area: each
 * flaw lets a symbolic link planted in a workspace lead a call out of it.
 */
export interface DiskProviderFlaws {
  /** The jail is `path.resolve` + `startsWith` only, and every fs call follows links (the auditor's provider). */
  lexicalJail?: boolean;
  /** File operations are confined, but export opens the lexical path, following links. */
  followAtExport?: boolean;
  /** Snapshots copy what links point at instead of the links (`cp --dereference`). */
  dereferenceSnapshots?: boolean;
}

const code = (error: unknown) => (error as NodeJS.ErrnoException).code;

/**
 * A small real-disk provider for the suite's own tests: workspaces are host directories under
 * `root`, commands are `sh -c` in them, snapshots are copies. Not conformant beyond what the
 * symlink area checks (no process groups, no quota, no isolation).
 */
export function createDiskProvider(root: string, flaws: DiskProviderFlaws = {}): BackendProviderV1 {
  const workspaceOf = (backendId: string) => join(root, 'workspaces', backendId);
  const snapshotOf = (snapshotId: string) => join(root, 'snapshots', snapshotId);
  const backend = (workspace: string, backendId: string): ProviderBackend => {
    const lexical = (path: string) => {
      const absolute = resolve(workspace, path);
      if (absolute !== workspace && !absolute.startsWith(`${workspace}/`)) throw new InvalidRequestError(`${path} leaves the workspace`, { path });
      return absolute;
    };
    /** The lexical path, then (unless the jail is lexical) its real path, refused when that leaves the workspace. */
    const confined = async (path: string, lexicalOnly = flaws.lexicalJail): Promise<string> => {
      const absolute = lexical(path);
      if (lexicalOnly) return absolute;
      const physical = async (at: string): Promise<string> => {
        try {
          return await realpath(at);
        } catch (error) {
          if (code(error) !== 'ENOENT') throw error;
          if (await lstat(at).then(() => true, () => false)) throw new InvalidRequestError(`${path} is a dangling symbolic link`, { path });
          return join(await physical(dirname(at)), basename(at));
        }
      };
      const real = await physical(absolute);
      if (real !== workspace && !real.startsWith(`${workspace}/`)) throw new InvalidRequestError(`${path} leads out of the workspace`, { path });
      return real;
    };
    const regular = async (path: string, lexicalOnly?: boolean) => {
      const absolute = await confined(path, lexicalOnly);
      const info = await stat(absolute).catch((error: unknown) => {
        throw code(error) === 'ENOENT' ? new PathNotFoundError(path) : error;
      });
      if (!info.isFile()) throw new InvalidRequestError(`${path} is not a regular file`, { path });
      return { absolute, sizeBytes: info.size };
    };
    const tree: SearchTree = {
      async listFiles(baseDir) {
        const files: string[] = [];
        const walk = async (directory: string): Promise<void> => {
          for (const entry of await readdir(directory, { withFileTypes: true }).catch(() => [])) {
            const at = join(directory, entry.name);
            // A lexical walk follows links (stat); a confined one sees them as what they are.
            const info = flaws.lexicalJail ? await stat(at).catch(() => undefined) : entry;
            if (info?.isDirectory()) await walk(at);
            else if (info?.isFile()) files.push(relative(workspace, at));
          }
        };
        await walk(await confined(baseDir));
        return files;
      },
      readFile: async (path) => readFile(await confined(path)),
    };
    return {
      resource: { backendId },
      workspaceRoot: workspace,
      async stat(path) {
        const info = await stat(await confined(path)).catch(() => undefined);
        if (!info) return { exists: false, kind: null, sizeBytes: null, modifiedAtMs: null };
        return { exists: true, kind: info.isFile() ? 'file' : info.isDirectory() ? 'directory' : 'other', sizeBytes: info.size, modifiedAtMs: info.mtimeMs };
      },
      readBytes: async (path) => readFile((await regular(path)).absolute),
      async writeBytes(path, content) {
        const absolute = await confined(path);
        const created = !(await stat(absolute).then(() => true, () => false));
        await mkdir(dirname(absolute), { recursive: true });
        await writeFile(absolute, content);
        return { path, created };
      },
      createDirAll: async (path) => void (await mkdir(await confined(path), { recursive: true })),
      async tempPath(request) {
        const path = `.tmp/${request.prefix ?? 'tmp-'}${randomBytes(6).toString('hex')}${request.suffix ?? ''}`;
        await mkdir(await confined('.tmp'), { recursive: true });
        if (request.kind === 'directory') await mkdir(await confined(path));
        else await writeFile(await confined(path), '');
        return path;
      },
      async exec(request: ExecRequest): Promise<ExecResult> {
        const cwd = await confined(request.cwd ?? '.');
        if (!(await stat(cwd).catch(() => undefined))?.isDirectory()) throw new PathNotFoundError(request.cwd ?? '.');
        return new Promise((done) => {
          execFile('/bin/sh', ['-c', request.command], { cwd, env: { PATH: '/usr/bin:/bin', ...request.env }, timeout: request.timeoutMs, encoding: 'buffer' }, (error, stdout, stderr) => {
            const exitCode = error ? (typeof error.code === 'number' ? error.code : null) : 0;
            done({ stdout, stderr, exitCode, timedOut: error?.killed ?? false, truncated: false });
          });
        });
      },
      glob: async (request) => globFiles(tree, request.baseDir ?? '', request.pattern, request.limit),
      grep: async (request) => grepFiles(tree, request.baseDir ?? '', request),
      async export(path) {
        const { absolute, sizeBytes } = await regular(path, flaws.lexicalJail || flaws.followAtExport);
        return { fileName: basename(path), sizeBytes, content: createReadStream(absolute) };
      },
    };
  };
  return {
    specificationVersion: 'backend-provider-v1',
    providerId: 'disk',
    async create(request) {
      await mkdir(workspaceOf(request.backendId), { recursive: true });
      return backend(await realpath(workspaceOf(request.backendId)), request.backendId);
    },
    async attach(request) {
      return backend(await realpath(workspaceOf(request.backendId)), request.backendId);
    },
    release: async (request) => rm(workspaceOf(request.backendId), { recursive: true, force: true }),
    async checkpoint(live) {
      const snapshotId = `snap-${randomBytes(8).toString('hex')}`;
      const dereference = flaws.dereferenceSnapshots ?? false;
      // Dereferencing, a dangling link is left out rather than failing the copy.
      const filter = (source: string) => !dereference || stat(source).then(() => true, () => false);
      await cp(live.workspaceRoot, snapshotOf(snapshotId), { recursive: true, verbatimSymlinks: !dereference, dereference, filter });
      return { snapshotId, names: [] };
    },
    async checkout(request) {
      await cp(snapshotOf(request.snapshotId), workspaceOf(request.backendId), { recursive: true, verbatimSymlinks: true });
      return backend(await realpath(workspaceOf(request.backendId)), request.backendId);
    },
    async deleteSnapshot(snapshotId) {
      const existed = await stat(snapshotOf(snapshotId)).then(() => true, () => false);
      await rm(snapshotOf(snapshotId), { recursive: true, force: true });
      return { deleted: existed };
    },
  };
}
