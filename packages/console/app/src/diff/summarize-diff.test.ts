import { describe, expect, it } from 'vitest';
import { summarizeDiff } from './summarize-diff';

describe('summarizeDiff', () => {
  it('names every count', () => {
    expect(summarizeDiff({ added: 2, removed: 0, modified: 1, mode_changed: 0, type_changed: 3 })).toBe(
      '2 added, 1 modified, 0 removed, 0 mode changed, 3 type changed',
    );
  });
});
