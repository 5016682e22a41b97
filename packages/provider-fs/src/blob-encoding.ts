import { createReadStream, createWriteStream } from 'node:fs';
import { open, rm, stat } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { createGzip, gzipSync } from 'node:zlib';
import { temporaryNameBeside } from './durable-files';
import { OWNER_ONLY_FILE_MODE } from '@runtimectl/provider-local';

/** Below this a compressed copy cannot save a disk block worth the CPU. */
export const COMPRESS_FROM_BYTES = 4096;
/** Keep the compressed copy only when it saves at least this fraction of the raw size. */
const COMPRESSION_MUST_SAVE = 0.1;
/** Larger contents are tried on their first bytes first: random data is not gzipped whole to learn it does not shrink. */
const SAMPLE_BYTES = 16 * 1024;
/**
 * gzip level 1: on source and logs it keeps most of level 6's saving at about three times the
 * speed; a checkpoint is waited on, the disk it saves is not.
 */
const GZIP_LEVEL = 1;

const pays = (compressed: number, raw: number) => compressed <= raw * (1 - COMPRESSION_MUST_SAVE);

/** `content` gzipped when that saves at least 10%, else null (store it raw). Synchronous: for contents read whole. */
export function gzipIfItPays(content: Buffer): Buffer | null {
  if (content.length < COMPRESS_FROM_BYTES) return null;
  if (content.length > SAMPLE_BYTES && !samplePays(content.subarray(0, SAMPLE_BYTES))) return null;
  const compressed = gzipSync(content, { level: GZIP_LEVEL });
  return pays(compressed.length, content.length) ? compressed : null;
}

/**
 * The file `raw` (of `rawBytes`) gzipped beside it when that saves at least 10%: the path of the
 * compressed copy, or null. Streams: for contents too large to hold in memory.
 */
export async function gzipFileIfItPays(raw: string, rawBytes: number): Promise<string | null> {
  if (rawBytes < COMPRESS_FROM_BYTES) return null;
  const handle = await open(raw, 'r');
  try {
    const sample = Buffer.alloc(Math.min(SAMPLE_BYTES, rawBytes));
    const { bytesRead } = await handle.read(sample, 0, sample.length, 0);
    if (!samplePays(sample.subarray(0, bytesRead))) return null;
  } finally {
    await handle.close();
  }
  const compressed = temporaryNameBeside(raw);
  await pipeline(createReadStream(raw), createGzip({ level: GZIP_LEVEL }), createWriteStream(compressed, { mode: OWNER_ONLY_FILE_MODE }));
  if (pays((await stat(compressed)).size, rawBytes)) return compressed;
  await rm(compressed, { force: true });
  return null;
}

function samplePays(sample: Buffer): boolean {
  return pays(gzipSync(sample, { level: GZIP_LEVEL }).length, sample.length);
}
