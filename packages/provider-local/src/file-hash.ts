import { createHash } from 'node:crypto';
import { createReadStream, readFileSync } from 'node:fs';

/** Above this a file is hashed as a stream, not read whole. */
const WHOLE_CONTENT_BYTES = 1024 * 1024;

/** sha256 (lowercase hex) and byte count of the open file `fd`, read from its start; `size` is the size seen before. The caller closes `fd`. */
export async function hashOpenFile(fd: number, size: number): Promise<{ hash: string; size: number }> {
  const hash = createHash('sha256');
  if (size <= WHOLE_CONTENT_BYTES) {
    const content = readFileSync(fd);
    return { hash: hash.update(content).digest('hex'), size: content.length };
  }
  let bytes = 0;
  for await (const chunk of createReadStream('', { fd, start: 0, autoClose: false })) {
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  return { hash: hash.digest('hex'), size: bytes };
}
