import { createHash, randomBytes } from 'node:crypto';
import { closeSync, openSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hashOfDescriptor, WHOLE_CONTENT_BYTES } from '../src/blob-batch';
import { useTemporaryDirectories } from './fs-fixture';

describe('hashOfDescriptor', () => {
  const temporary = useTemporaryDirectories();

  it.each([
    ['empty', 0],
    ['small', 1000],
    ['exactly one piece', WHOLE_CONTENT_BYTES],
    ['several pieces and a tail', 2 * WHOLE_CONTENT_BYTES + 12345],
  ])('hashes a file (%s) from its start to its end, in pieces through one reused buffer', async (_, size) => {
    const directory = await temporary('hash');
    const [first, second] = [randomBytes(size), randomBytes(size)];
    await writeFile(join(directory, 'a'), first);
    await writeFile(join(directory, 'b'), second);
    const [a, b] = [openSync(join(directory, 'a'), 'r'), openSync(join(directory, 'b'), 'r')];
    try {
      // Two at once: the shared buffer is never held across a turn of the event loop.
      const [hashA, hashB] = await Promise.all([hashOfDescriptor(a), hashOfDescriptor(b)]);
      expect(hashA).toEqual({ hash: createHash('sha256').update(first).digest('hex'), size });
      expect(hashB).toEqual({ hash: createHash('sha256').update(second).digest('hex'), size });
    } finally {
      closeSync(a);
      closeSync(b);
    }
  });
});
