/**
 * envd's `/files`: GET streams a file's bytes; POST writes one or more files, either as
 * multipart/form-data (a `file` part per file whose filename is the target path; `?path=`
 * wins for a single write) or as application/octet-stream (one file, `?path=` required,
 * optionally gzip-encoded). Parents are created; files are written in place, as envd does.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import busboy from 'busboy';
import type { EmulatorContext } from '../emulator-context.js';
import { ApiError } from '../http/api-error.js';
import { sendJson } from '../http/http-io.js';
import type { RouteContext, RouteTable } from '../http/route-table.js';
import { normalizeSandboxPath, resolveSandboxPath } from '../sandbox/sandbox-paths.js';
import type { SandboxRecord } from '../sandbox/sandbox-store.js';
import { homeOf, sandboxUserNamed, UnknownSandboxUserError, type SandboxUser } from '../sandbox/sandbox-users.js';
import { FileMetadataError, writeFileMetadata, type FileMetadata } from '../metadata/file-metadata.js';
import { envdHttpRoute } from './envd-route.js';
import { apiErrorOfFsError } from './fs-errors.js';

const METADATA_HEADER_PREFIX = 'x-metadata-';

interface WriteInfo {
  name: string;
  type: 'file';
  path: string;
  metadata?: FileMetadata;
}

export function addFilesRoutes(routes: RouteTable, context: EmulatorContext): void {
  routes
    .add('GET', '/files', envdHttpRoute(context, 'files', readFile))
    .add('POST', '/files', envdHttpRoute(context, 'files', writeFiles));
}

/** The user `?username=` names (default `user`); 401 for a user envd would not know. */
function userOfQuery(url: URL): SandboxUser {
  try {
    return sandboxUserNamed(url.searchParams.get('username'));
  } catch (error) {
    if (error instanceof UnknownSandboxUserError) throw new ApiError(401, error.message);
    throw error;
  }
}

async function readFile({ res, url }: RouteContext, sandbox: SandboxRecord): Promise<void> {
  const home = homeOf(userOfQuery(url));
  const requested = url.searchParams.get('path');
  if (!requested) throw new ApiError(400, 'path is required');
  const target = await resolveSandboxPath(sandbox.directory, normalizeSandboxPath(requested, home), true);
  const stats = await stat(target.hostPath).catch((error: unknown) => {
    throw apiErrorOfFsError(error, target.sandboxPath);
  });
  if (stats.isDirectory()) throw new ApiError(400, `path '${target.sandboxPath}' is a directory`);
  // No content-disposition: real envd sends none, and a raw non-ASCII file name is not a valid header.
  res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': stats.size });
  await pipeline(createReadStream(target.hostPath), res);
}

async function writeFiles({ req, res, url }: RouteContext, sandbox: SandboxRecord): Promise<void> {
  const user = userOfQuery(url);
  const metadata = metadataOfHeaders(req);
  const queryPath = url.searchParams.get('path') || undefined;
  const contentType = (req.headers['content-type'] ?? '').toLowerCase();
  let written: WriteInfo[];
  if (contentType.startsWith('multipart/form-data')) {
    written = await writeMultipart(req, sandbox, user, queryPath, metadata);
  } else if (contentType.startsWith('application/octet-stream')) {
    if (!queryPath) throw new ApiError(400, 'path is required for application/octet-stream uploads');
    const encoding = (req.headers['content-encoding'] ?? '').toLowerCase();
    if (encoding && encoding !== 'gzip' && encoding !== 'identity') throw new ApiError(400, `unsupported content encoding '${encoding}'`);
    const body: Readable = encoding === 'gzip' ? req.pipe(createGunzip()) : req;
    written = [await writeStream(sandbox, user, queryPath, body, metadata)];
  } else {
    throw new ApiError(400, `unsupported content type '${contentType || 'none'}'`);
  }
  if (written.length === 0) throw new ApiError(400, 'no file part in the request');
  sendJson(res, 200, written);
}

/** Parses the multipart body; parts are written one after another, in order. */
function writeMultipart(
  req: IncomingMessage,
  sandbox: SandboxRecord,
  user: SandboxUser,
  queryPath: string | undefined,
  metadata: FileMetadata,
): Promise<WriteInfo[]> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      // preservePath: the filename IS the target path; utf8: non-ASCII paths survive.
      parser = busboy({ headers: req.headers, preservePath: true, defParamCharset: 'utf8' });
    } catch (error) {
      reject(new ApiError(400, `invalid multipart request: ${(error as Error).message}`));
      return;
    }
    const results: WriteInfo[] = [];
    let chain: Promise<void> = Promise.resolve();
    parser.on('file', (field, stream, info) => {
      const target = queryPath ?? undoFormDataEscapes(info.filename ?? '');
      if (field !== 'file' || !target) {
        stream.resume();
        return;
      }
      // Busboy hands parts over one at a time; each must be consumed, even after a failure.
      chain = chain.then(
        async () => {
          results.push(await writeStream(sandbox, user, target, stream, metadata));
        },
        (error: unknown) => {
          stream.resume();
          throw error;
        },
      );
      chain.catch(() => undefined); // answered on 'close'; not an unhandled rejection meanwhile
    });
    // A `file` part sent as a plain form field (FormData.append('file', 'text'): no filename)
    // is the file's content when `?path=` names the target, as envd reads it.
    parser.on('field', (field, value) => {
      if (field !== 'file' || !queryPath) return;
      chain = chain.then(async () => {
        results.push(await writeStream(sandbox, user, queryPath, Readable.from([Buffer.from(value, 'utf8')]), metadata));
      });
      chain.catch(() => undefined);
    });
    parser.on('error', (error: Error) => reject(new ApiError(400, `invalid multipart request: ${error.message}`)));
    parser.on('close', () => {
      chain.then(() => resolve(results), reject);
    });
    req.pipe(parser);
  });
}

/** undici's FormData escapes `"`, CR and LF in filenames as %22, %0D and %0A. */
function undoFormDataEscapes(filename: string): string {
  return filename.replace(/%22/g, '"').replace(/%0D/gi, '\r').replace(/%0A/gi, '\n');
}

/**
 * envd ≥ 0.6.2: `X-Metadata-<key>: <value>` headers are metadata for every file of the upload.
 * Header names reach Node lower-cased (the SDK's undici sends them so too), and so do the keys.
 */
function metadataOfHeaders(req: IncomingMessage): FileMetadata {
  const metadata: FileMetadata = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (!name.startsWith(METADATA_HEADER_PREFIX) || value === undefined) continue;
    const key = name.slice(METADATA_HEADER_PREFIX.length);
    if (key === '') throw new ApiError(400, 'metadata key must not be empty');
    metadata[key] = Array.isArray(value) ? value.join(', ') : value;
  }
  return metadata;
}

/**
 * Streams `body` into the sandbox file at `requestedPath` in place (`O_WRONLY|O_CREAT|O_TRUNC`),
 * as envd writes it: a watcher of the directory sees WRITE events on the file itself, an existing
 * file keeps its inode and mode (and becomes the writing user's, as envd chowns it), and a failed
 * upload leaves what was written so far. The file's metadata becomes exactly `metadata`: an
 * overwrite without any clears what was there.
 */
async function writeStream(sandbox: SandboxRecord, user: SandboxUser, requestedPath: string, body: Readable, metadata: FileMetadata): Promise<WriteInfo> {
  const target = await resolveSandboxPath(sandbox.directory, normalizeSandboxPath(requestedPath, homeOf(user)), true);
  const fail = (error: unknown): never => {
    body.resume();
    throw apiErrorOfFsError(error, target.sandboxPath);
  };
  const existing = await stat(target.hostPath).catch(() => undefined);
  if (existing?.isDirectory()) fail(new ApiError(400, `path '${target.sandboxPath}' is a directory`));
  await sandbox.owners.ensureDirectory(path.dirname(target.hostPath), user, sandbox.directory).catch(fail);
  await pipeline(body, createWriteStream(target.hostPath, { flags: 'w', mode: 0o644 })).catch(fail);
  // As envd: the file is the writing user's, a new one or one that was someone else's.
  await sandbox.owners.own(target.hostPath, user).catch(fail);
  const hasMetadata = Object.keys(metadata).length > 0;
  if (hasMetadata || existing) {
    await writeFileMetadata(target.hostPath, metadata).catch((error: unknown) => {
      // Clearing needs nothing when python3 (and so any way to have set metadata) is missing.
      if (hasMetadata || !(error instanceof FileMetadataError && error.reason === 'unavailable')) {
        throw new ApiError(500, `could not set the metadata of '${target.sandboxPath}': ${(error as Error).message}`);
      }
    });
  }
  return { name: path.posix.basename(target.sandboxPath), type: 'file', path: target.sandboxPath, ...(hasMetadata ? { metadata } : {}) };
}
