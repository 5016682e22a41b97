import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ViewCache } from '../src/layers/view-cache';

/** A cache over fake mounts: each "mount" is a new temporary directory; the calls are counted. */
function cacheOf(idleMs: number) {
  const calls = { mounted: [] as string[], unmounted: [] as string[] };
  const cache = new ViewCache(
    async (top) => {
      calls.mounted.push(top);
      return mkdtempSync(join(tmpdir(), `view-${top}-`));
    },
    async (view) => {
      calls.unmounted.push(view);
      rmSync(view, { recursive: true, force: true });
    },
    idleMs,
  );
  return { cache, calls };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('ViewCache (read-only views kept mounted between reads by checkpoint)', () => {
  it('mounts a chain once for reads that follow one another, and once for reads at the same time', async () => {
    const { cache, calls } = cacheOf(60_000);
    const seen = await Promise.all([cache.use('a', async (root) => root), cache.use('a', async (root) => root)]);
    expect(await cache.use('a', async (root) => root)).toBe(seen[0]);
    expect(seen[1]).toBe(seen[0]);
    await cache.use('b', async (root) => root);
    expect(calls.mounted).toEqual(['a', 'b']);
    await cache.dropAll();
    expect(calls.unmounted).toHaveLength(2);
  });

  it('unmounts a view once no read used it for the idle time, and mounts it again when asked', async () => {
    const { cache, calls } = cacheOf(20);
    const first = await cache.use('a', async (root) => root);
    await sleep(80);
    expect(calls.unmounted).toEqual([first]);
    await cache.use('a', async (root) => root);
    expect(calls.mounted).toEqual(['a', 'a']);
    await cache.dropAll();
  });

  it('never unmounts a view a read is using; one found gone meanwhile is mounted again', async () => {
    const { cache, calls } = cacheOf(60_000);
    let release!: () => void;
    const reading = cache.use('a', (root) => new Promise<string>((resolve) => (release = () => resolve(root))));
    await sleep(10);
    await cache.dropAll();
    expect(calls.unmounted).toEqual([]);
    release();
    const view = await reading;
    rmSync(view, { recursive: true }); // unmounted behind the cache's back
    expect(await cache.use('a', async (root) => root)).not.toBe(view);
    expect(calls.mounted).toEqual(['a', 'a']);
    await cache.dropAll();
  });
});
