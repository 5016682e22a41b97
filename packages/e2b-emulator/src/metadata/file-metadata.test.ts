import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FileMetadataHelper } from './file-metadata.js';

const scratch = await mkdtemp(path.join(tmpdir(), 'file-metadata-'));
afterAll(() => rm(scratch, { recursive: true, force: true }));

describe('the file metadata helper', () => {
  it('a request arriving just as the idle helper is told to exit is answered by a new helper, not lost with the old one', async () => {
    // CI saw "the file metadata helper exited with 0": the idle timer ended the helper's stdin
    // but left it current, so a request in the window before it exited went to a dying process.
    const idleExitMs = 30;
    const helper = new FileMetadataHelper(idleExitMs);
    const file = path.join(scratch, 'tagged.txt');
    await writeFile(file, 'x');
    await helper.request({ op: 'write', path: file, metadata: { author: 'a' } });
    for (let round = 0; round < 3; round += 1) {
      await helper.request({ op: 'read', path: file });
      // Set after the helper's idle timer, for the same delay: it runs right after that timer, in
      // the same turn, when the helper has been told to exit and has not yet.
      const inTheWindow = await new Promise<Promise<unknown>>((resolve) => setTimeout(() => resolve(helper.request({ op: 'read', path: file })), idleExitMs));
      expect(await inTheWindow).toEqual({ author: 'a' });
    }
  });
});
