import { describe, expect, it } from 'vitest';
import { globFiles, grepFiles, type SearchTree } from './search-files';

function treeOf(names: string[]): SearchTree {
  return {
    listFiles: async () => names,
    readFile: async () => new TextEncoder().encode('needle\n'),
  };
}

/** Counts turns of the event loop's check phase until `work` settles: 0 when it never let the loop run. */
async function turnsWhile<T>(work: () => Promise<T>): Promise<{ result: T; turns: number }> {
  let settled = false;
  let turns = 0;
  const tick = () => {
    if (settled) return;
    turns += 1;
    setImmediate(tick);
  };
  setImmediate(tick);
  const result = await work();
  settled = true;
  return { result, turns };
}

describe('globFiles and grepFiles', () => {
  const names = Array.from({ length: 20_000 }, (_, index) => `src/${'deep/'.repeat(10)}module-${String(index).padStart(5, '0')}.${index % 2 === 0 ? 'ts' : 'js'}`);

  it('a glob over 20,000 names yields to the event loop while it matches: work queued beside it runs before it answers', async () => {
    const { result, turns } = await turnsWhile(() => globFiles(treeOf(names), '', '**/*.ts', 5));
    expect(result).toEqual({ kind: 'paths', paths: names.filter((name) => name.endsWith('.ts')).sort().slice(0, 5), truncated: true });
    expect(turns).toBeGreaterThan(1);
  });

  it('so does a grep whose include glob filters 20,000 names', async () => {
    const { result, turns } = await turnsWhile(() => grepFiles(treeOf(names), '', { query: 'needle', include: '**/module-0000?.ts', mode: 'files_with_matches', limit: 10 }));
    expect(result).toEqual({ kind: 'paths', paths: ['00000', '00002', '00004', '00006', '00008'].map((n) => `src/${'deep/'.repeat(10)}module-${n}.ts`), truncated: false });
    expect(turns).toBeGreaterThan(1);
  });

  it('a backtracking-hostile glob over long names answers with what matches', async () => {
    const long = ['a'.repeat(200), `${'a'.repeat(199)}b`];
    expect(await globFiles(treeOf(long), '', '*a*a*a*a*b', 10)).toEqual({ kind: 'paths', paths: [long[1]], truncated: false });
  });
});
