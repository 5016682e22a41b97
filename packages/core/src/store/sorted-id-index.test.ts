import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lowerBound, SortedIdIndex } from './sorted-id-index';

describe('SortedIdIndex', () => {
  it('keeps each group ascending and free of duplicates, whatever the order of adds and removes', () => {
    const operation = fc.record({ add: fc.boolean(), key: fc.constantFrom('a', 'b'), id: fc.string({ maxLength: 3 }) });
    fc.assert(
      fc.property(fc.array(operation, { maxLength: 200 }), (operations) => {
        const index = new SortedIdIndex();
        const model = new Map<string, Set<string>>([
          ['a', new Set()],
          ['b', new Set()],
        ]);
        for (const { add, key, id } of operations) {
          if (add) {
            index.add(key, id);
            model.get(key)!.add(id);
          } else {
            index.remove(key, id);
            model.get(key)!.delete(id);
          }
        }
        for (const [key, ids] of model) expect(index.get(key)).toStrictEqual([...ids].sort());
      }),
    );
  });

  it('appends time-ordered ids and inserts an older one in its place', () => {
    const index = new SortedIdIndex();
    for (const id of ['ckpt_01', 'ckpt_02', 'ckpt_04', 'ckpt_03', 'ckpt_02']) index.add('rt', id);
    expect(index.get('rt')).toStrictEqual(['ckpt_01', 'ckpt_02', 'ckpt_03', 'ckpt_04']);
  });

  it('forgets a group once its last id is removed, and answers an empty list for unknown keys', () => {
    const index = new SortedIdIndex();
    index.add('rt', 'x');
    index.remove('rt', 'x');
    index.remove('rt', 'x');
    index.remove('other', 'x');
    expect(index.get('rt')).toStrictEqual([]);
    expect(index.get('other')).toStrictEqual([]);
  });

  it('lowerBound finds the first id not below the one asked for', () => {
    const ids = ['b', 'd', 'f'];
    expect(['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((id) => lowerBound(ids, id))).toStrictEqual([0, 0, 1, 1, 2, 2, 3]);
    expect(lowerBound([], 'a')).toBe(0);
  });
});

describe('SortedIdIndex at scale', () => {
  // Quadratic shifting would move 2·10^10 references here: many minutes, far past this test's
  // 60 s (a liveness bound, not a timing one: it took under a second on an idle machine, and
  // over 5 s — the default timeout — on a loaded CI machine).
  it('removes a group of 200,000 ids one by one, oldest first, without shifting the group each time', { timeout: 60_000 }, () => {
    const index = new SortedIdIndex();
    const ids = Array.from({ length: 200_000 }, (_, position) => `ckpt_${String(position).padStart(8, '0')}`);
    for (const id of ids) index.add('snapshot', id);
    for (const [position, id] of ids.entries()) {
      index.remove('snapshot', id);
      if (position === 149_999) expect(index.get('snapshot')).toStrictEqual(ids.slice(150_000));
    }
    expect(index.get('snapshot')).toStrictEqual([]);
  });
});
