/**
 * envd's `filesystem.Filesystem` unary methods over Connect JSON: Stat, MakeDir, ListDir,
 * Remove and Move, on the sandbox's real directory (the WatchDir stream is `watch-dir-rpc.ts`).
 */
import { lstat, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { EmulatorContext } from '../emulator-context.js';
import { readBody } from '../http/http-io.js';
import type { RouteTable } from '../http/route-table.js';
import { normalizeSandboxPath, resolveSandboxPath, type ResolvedPath } from '../sandbox/sandbox-paths.js';
import type { SandboxRecord } from '../sandbox/sandbox-store.js';
import { homeOf, sandboxUserOfRequest, type SandboxUser } from '../sandbox/sandbox-users.js';
import { ConnectRpcError, decodeUnaryBody, parseMessage, sendUnaryMessage } from './connect-framing.js';
import { entryInfoOf, type EntryInfoJson } from './entry-info.js';
import { envdUnaryRoute } from './envd-route.js';
import { connectErrorOfFsError } from './fs-errors.js';

/** One method; relative and `~` paths start at `home`, the calling user's. */
/** One unary method of envd's Filesystem service, for `user` (whose home relative paths resolve against). */
type UnaryMethod = (body: unknown, sandbox: SandboxRecord, user: SandboxUser) => Promise<unknown>;

const pathRequest = z.looseObject({ path: z.string() });
const listDirRequest = z.looseObject({ path: z.string(), depth: z.number().int().min(0).optional() });
const moveRequest = z.looseObject({ source: z.string(), destination: z.string() });

const METHODS: Record<string, UnaryMethod> = {
  Stat: async (body, sandbox, user) => {
    const target = await resolve(sandbox, user, parseMessage(pathRequest, body).path, false);
    return { entry: await guarded(target, () => entryInfoOf(sandbox.directory, sandbox.owners, target)) };
  },
  MakeDir: async (body, sandbox, user) => {
    const target = await resolve(sandbox, user, parseMessage(pathRequest, body).path, true);
    const existing = await stat(target.hostPath).catch(() => undefined);
    if (existing?.isDirectory()) throw new ConnectRpcError('already_exists', `directory already exists: ${target.sandboxPath}`);
    if (existing) throw new ConnectRpcError('invalid_argument', `path already exists but it is not a directory: ${target.sandboxPath}`);
    await guarded(target, () => sandbox.owners.ensureDirectory(target.hostPath, user, sandbox.directory));
    return { entry: await entryInfoOf(sandbox.directory, sandbox.owners, target) };
  },
  ListDir: async (body, sandbox, user) => {
    const request = parseMessage(listDirRequest, body);
    const target = await resolve(sandbox, user, request.path, true);
    const stats = await guarded(target, () => stat(target.hostPath));
    if (!stats.isDirectory()) throw new ConnectRpcError('invalid_argument', `path is not a directory: ${target.sandboxPath}`);
    const entries: EntryInfoJson[] = [];
    await walk(sandbox, target, Math.max(request.depth ?? 1, 1), entries);
    return { entries };
  },
  Remove: async (body, sandbox, user) => {
    const target = await resolve(sandbox, user, parseMessage(pathRequest, body).path, false);
    if (target.sandboxPath === '/') throw new ConnectRpcError('invalid_argument', 'refusing to remove /');
    // envd's os.RemoveAll: a path that is not there is already removed.
    await guarded(target, () => rm(target.hostPath, { recursive: true, force: true }));
    return {};
  },
  Move: async (body, sandbox, user) => {
    const request = parseMessage(moveRequest, body);
    const source = await resolve(sandbox, user, request.source, false);
    const destination = await resolve(sandbox, user, request.destination, false);
    await guarded(source, () => lstat(source.hostPath));
    await guarded(destination, () => sandbox.owners.ensureDirectory(path.dirname(destination.hostPath), user, sandbox.directory));
    await guarded(destination, () => rename(source.hostPath, destination.hostPath));
    return { entry: await entryInfoOf(sandbox.directory, sandbox.owners, destination) };
  },
};

export function addFilesystemRoutes(routes: RouteTable, context: EmulatorContext): void {
  for (const [method, implementation] of Object.entries(METHODS)) {
    routes.add(
      'POST',
      `/filesystem.Filesystem/${method}`,
      envdUnaryRoute(context, 'filesystem', async ({ req, res }, sandbox) => {
        const user = sandboxUserOfRequest(req);
        const body = decodeUnaryBody(await readBody(req));
        sendUnaryMessage(res, await implementation(body, sandbox, user));
      }),
    );
  }
}

async function resolve(sandbox: SandboxRecord, user: SandboxUser, requestPath: string, followLast: boolean): Promise<ResolvedPath> {
  return resolveSandboxPath(sandbox.directory, normalizeSandboxPath(requestPath, homeOf(user)), followLast);
}

/** Runs a filesystem call, turning errno failures into envd's Connect errors. */
async function guarded<T>(target: ResolvedPath, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw connectErrorOfFsError(error, target.sandboxPath);
  }
}

/** Depth-first listing up to `depth` levels, not descending into symlinked directories. */
async function walk(sandbox: SandboxRecord, directory: ResolvedPath, depth: number, into: EntryInfoJson[]): Promise<void> {
  const names = (await readdir(directory.hostPath)).sort();
  for (const name of names) {
    const child: ResolvedPath = {
      hostPath: path.join(directory.hostPath, name),
      sandboxPath: path.posix.join(directory.sandboxPath, name),
    };
    const entry = await entryInfoOf(sandbox.directory, sandbox.owners, child).catch(() => undefined);
    if (!entry) continue; // removed while listing
    into.push(entry);
    const isDirectory = entry.type === 'FILE_TYPE_DIRECTORY' && entry.symlinkTarget === undefined;
    if (depth > 1 && isDirectory) await walk(sandbox, child, depth - 1, into);
  }
}
