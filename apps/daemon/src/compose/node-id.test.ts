import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadNodeId } from './node-id';
import { temporaryDirectory } from '../../test/temporary-directory';

describe('loadNodeId', () => {
  it('is a random node id kept in the state directory, so a restart keeps it', () => {
    const stateDir = temporaryDirectory('runtimed-node-id-');
    const first = loadNodeId(stateDir);
    expect(first).toMatch(/^node_[0-9a-f]{32}$/);
    expect(readFileSync(join(stateDir, 'node-id'), 'utf8').trim()).toBe(first);
    expect(loadNodeId(stateDir)).toBe(first);
    expect(loadNodeId(temporaryDirectory('runtimed-node-id-'))).not.toBe(first);
  });
});
