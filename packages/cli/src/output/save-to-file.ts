import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { link, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream } from 'node:stream/web';

/**
 * Streams `body` into the local file `target` and resolves with the bytes written. The bytes go
 * to a temporary file beside it first, so a failed or cut download leaves nothing at `target`
 * (and removes the temporary file). Without `overwrite` an existing `target` is never replaced:
 * the file is linked into place, which fails with EEXIST if one appeared meanwhile.
 */
export async function saveToFile(body: ReadableStream<Uint8Array>, target: string, overwrite: boolean): Promise<number> {
  const temporary = join(dirname(target), `.${basename(target)}.${randomBytes(6).toString('hex')}.part`);
  let bytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      done(null, chunk);
    },
  });
  try {
    await pipeline(Readable.fromWeb(body), counter, createWriteStream(temporary, { flags: 'wx' }));
    if (overwrite) await rename(temporary, target);
    else await link(temporary, target);
  } finally {
    await rm(temporary, { force: true });
  }
  return bytes;
}
