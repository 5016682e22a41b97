/**
 * envd's `filesystem.Filesystem/WatchDir` (`files.watchDir`): a server stream that opens with
 * `{start:{}}` once the watch is in place, then carries one `{filesystem:{name, type, entry?}}`
 * per change (WatchDirResponse's oneof sits at the top of the message, unlike the process
 * events' `event` field) and `{keepalive:{}}` at the client's ping interval. It ends when the
 * client goes away, at its `Connect-Timeout-Ms` deadline (`deadline_exceeded`), or broken when
 * the sandbox is killed or paused. A path that is not there fails with `not_found`, one that is
 * not a directory with `invalid_argument`, as envd answers.
 */
import { stat } from 'node:fs/promises';
import { z } from 'zod';
import type { EmulatorContext } from '../emulator-context.js';
import { headerValue, readBody } from '../http/http-io.js';
import type { RouteContext, RouteTable } from '../http/route-table.js';
import { normalizeSandboxPath, resolveSandboxPath } from '../sandbox/sandbox-paths.js';
import type { SandboxRecord } from '../sandbox/sandbox-store.js';
import { homeOf, sandboxUserOfRequest } from '../sandbox/sandbox-users.js';
import { ConnectRpcError, decodeSingleEnvelope, parseConnectTimeoutMs, parseMessage } from './connect-framing.js';
import { ConnectStreamWriter } from './connect-stream.js';
import { DirectoryWatcher, TooManyWatchedDirectoriesError, type DirectoryEvent } from './directory-watcher.js';
import { entryInfoOf } from './entry-info.js';
import { envdStreamRoute } from './envd-route.js';
import { connectErrorOfFsError } from './fs-errors.js';

const watchDirRequest = z.looseObject({
  path: z.string(),
  recursive: z.boolean().nullish(),
  includeEntry: z.boolean().nullish(),
  // Network mounts do not exist here: every directory can be watched, with or without it.
  allowNetworkMounts: z.boolean().nullish(),
});

export function addWatchDirRoute(routes: RouteTable, context: EmulatorContext): void {
  routes.add('POST', '/filesystem.Filesystem/WatchDir', envdStreamRoute(context, 'filesystem', watchDir));
}

async function watchDir({ req, res }: RouteContext, sandbox: SandboxRecord): Promise<void> {
  const request = parseMessage(watchDirRequest, decodeSingleEnvelope(await readBody(req)));
  const home = homeOf(sandboxUserOfRequest(req));
  const target = await resolveSandboxPath(sandbox.directory, normalizeSandboxPath(request.path, home), true);
  const stats = await stat(target.hostPath).catch((error: unknown) => {
    throw connectErrorOfFsError(error, target.sandboxPath);
  });
  if (!stats.isDirectory()) throw new ConnectRpcError('invalid_argument', `path ${target.sandboxPath} not a directory`);

  let writer: ConnectStreamWriter | undefined;
  const pending: DirectoryEvent[] = [];
  // One after another: an entry lookup must not let a later event overtake an earlier one.
  let sending = Promise.resolve();
  const send = (event: DirectoryEvent): void => {
    const stream = writer;
    if (!stream) pending.push(event);
    else sending = sending.then(() => sendEvent(sandbox, stream, event, request.includeEntry ?? false));
  };
  let failWith: ((error: ConnectRpcError) => void) | undefined;
  const watcher = await DirectoryWatcher.start(sandbox.directory, target, { recursive: request.recursive ?? false }, send, (error) =>
    failWith?.(new ConnectRpcError('resource_exhausted', error.message)),
  ).catch((error: unknown) => {
    if (error instanceof TooManyWatchedDirectoriesError) throw new ConnectRpcError('resource_exhausted', error.message);
    throw connectErrorOfFsError(error, target.sandboxPath);
  });

  writer = new ConnectStreamWriter(res);
  const stream = writer;
  stream.send({ start: {} });
  for (const event of pending.splice(0)) send(event);
  const keepaliveSeconds = Number(headerValue(req, 'keepalive-ping-interval') ?? '0');
  const keepalive = keepaliveSeconds > 0 ? setInterval(() => stream.send({ keepalive: {} }), keepaliveSeconds * 1000) : undefined;
  const deadlineMs = parseConnectTimeoutMs(req.headers['connect-timeout-ms']);
  await new Promise<void>((resolve) => {
    let finished = false;
    const finish = (error?: ConnectRpcError, sever = false): void => {
      if (finished) return;
      finished = true;
      watcher.close();
      clearInterval(keepalive);
      clearTimeout(deadline);
      unregister();
      if (sever) stream.reset();
      else stream.end(error);
      resolve();
    };
    const deadline = deadlineMs
      ? setTimeout(() => finish(new ConnectRpcError('deadline_exceeded', `the watch exceeded its timeout of ${deadlineMs} ms`)), deadlineMs)
      : undefined;
    const unregister = sandbox.streams.add(() => finish(undefined, true));
    failWith = (error) => finish(error);
    res.once('close', () => finish());
  });
}

async function sendEvent(sandbox: SandboxRecord, writer: ConnectStreamWriter, event: DirectoryEvent, includeEntry: boolean): Promise<void> {
  // Best effort, as envd: the entry is there only when the path still exists.
  const entry = includeEntry ? await entryInfoOf(sandbox.directory, sandbox.owners, event.entry).catch(() => undefined) : undefined;
  writer.send({ filesystem: { name: event.name, type: event.type, ...(entry ? { entry } : {}) } });
}
