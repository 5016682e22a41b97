import { describe, expect, it } from 'vitest';
import { skippedPathsLine } from './skipped-paths';

describe('the line for the special files a snapshot left out', () => {
  it('names them with their kind, the first three, and says why', () => {
    expect(skippedPathsLine([{ path: 'run/app.sock', kind: 'socket' }])).toBe('not in the snapshot: 1 special file (special files are not kept): run/app.sock (socket)');
    const four = ['a', 'b', 'c', 'd'].map((path) => ({ path, kind: 'fifo' as const }));
    expect(skippedPathsLine(four)).toBe('not in the snapshot: 4 special files (special files are not kept): a (fifo), b (fifo), c (fifo), …; --json lists them');
  });

  it('a full list (the answer holds at most 100) may stand for more', () => {
    const hundred = Array.from({ length: 100 }, (_, index) => ({ path: `p${index}`, kind: 'device' as const }));
    expect(skippedPathsLine(hundred)).toMatch(/^not in the snapshot: 100 or more special files /);
  });
});
