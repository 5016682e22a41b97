import { createHash, randomBytes } from 'node:crypto';
import { lstat, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ProviderBackend } from '@runtimectl/provider';
import { createFsProvider, type FsProvider, type FsProviderSettings } from '../src/index';
import { LayerStore } from '../src/layers/layer-store';
import { LayeredSnapshots } from '../src/layers/layered-snapshots';
import { isMountPoint } from '../src/layers/mount-table';
import { unmount } from '../src/layers/overlay-mount';
import { useTemporaryDirectories } from './fs-fixture';

const asRoot = process.getuid?.() === 0;
const newBackendId = () => `bkd_${randomBytes(16).toString('hex')}`;
const labels = (backendId: string) => ({ runtimectl_installation: 'inst', runtimectl_backend_id: backendId });
const text = (bytes: Uint8Array) => Buffer.from(bytes).toString('utf8');

describe.skipIf(!asRoot)('fs provider with the layers snapshot store', () => {
  const temporary = useTemporaryDirectories();
  const live: { provider: FsProvider; backendId: string; resource: ProviderBackend['resource'] }[] = [];
  afterEach(async () => {
    for (const { provider, backendId, resource } of live.splice(0)) await provider.release({ backendId, resource }).catch(() => undefined);
  });

  async function setup(isolation: 'auto' | 'none' = 'auto', settings: Partial<Pick<FsProviderSettings, 'flattenPastLayers' | 'workspaceQuotaBytes' | 'crashPoint' | 'flattenFailed'>> = {}) {
    const dir = await temporary('layers-provider');
    const provider = createFsProvider({ root: join(dir, 'workspaces'), snapshots: join(dir, 'snapshots'), snapshotStore: 'layers', isolation, ...settings });
    const open = async (snapshotId?: string) => {
      const backendId = newBackendId();
      const request = { backendId, runtimeId: 'rt', options: {}, labels: labels(backendId) };
      const backend = snapshotId ? await provider.checkout({ ...request, snapshotId }) : await provider.create(request);
      live.push({ provider, backendId, resource: backend.resource });
      return { backend, backendId, directory: await provider.local.workspaceDirectory(backend.resource) };
    };
    const run = async (backend: ProviderBackend, command: string) => {
      const result = await backend.exec({ command, timeoutMs: 20_000, maxOutputBytes: 65_536 });
      expect(result.exitCode, text(result.stderr)).toBe(0);
      return text(result.stdout);
    };
    const layers = () => readdir(join(dir, 'snapshots', 'layers'));
    return { dir, provider, open, run, layers };
  }

  it('says it is in force (on the start line and in GET /providers) with what it does to running jobs, and `auto` chooses it where overlayfs works', async () => {
    const { provider, dir } = await setup();
    expect(await provider.snapshotStoreMode()).toEqual({ mode: 'layers' });
    const settings = await provider.settingsInForce();
    expect(settings.snapshot_store).toEqual({ value: 'layers' });
    expect(settings.isolation).toEqual({ value: (await provider.isolation()).mode, ...((await provider.isolation()).reason ? { reason: (await provider.isolation()).reason } : {}) });
    const auto = createFsProvider({ root: join(dir, 'w2'), snapshots: join(dir, 's2'), snapshotStore: 'auto' });
    expect(await auto.snapshotStoreMode()).toEqual({ mode: 'layers' });
    const hostProcesses = createFsProvider({ root: join(dir, 'w3'), snapshots: join(dir, 's3'), snapshotStore: 'layers', isolation: 'none' });
    expect((await hostProcesses.settingsInForce()).jobs_at_checkpoint).toEqual({ value: 'not frozen', reason: expect.stringContaining('isolation none') });
  });

  it('a workspace is an overlay mount; a checkpoint with nothing running seals its writes by rename and stores no blob', async () => {
    const { dir, provider, open, run, layers } = await setup();
    const { backend, directory } = await open();
    expect(await isMountPoint(directory)).toBe(true);
    await run(backend, 'mkdir -p src && echo one > src/a.txt && echo two > b.txt');
    const { snapshotId, manifestDelta: { changed: manifest } = { changed: [] } } = await provider.checkpoint(backend, { labels: {} });
    expect(manifest?.map((entry) => entry.path).sort()).toEqual(['b.txt', 'src', 'src/a.txt']);
    expect((await layers()).sort()).toHaveLength(2); // the empty layer and the sealed one
    const upper = (await readdir(join(dir, 'snapshots', 'live'))).map((name) => join(dir, 'snapshots', 'live', name, 'upper'));
    expect(await readdir(upper[0]!)).toEqual([]); // renamed into the layer: the new upper is empty
    expect(await readdir(join(dir, 'snapshots')).then((names) => names.includes('blobs'))).toBe(false);
    expect(await run(backend, 'cat src/a.txt b.txt')).toBe('one\ntwo\n');

    const child = await open(snapshotId);
    expect(await isMountPoint(child.directory)).toBe(true);
    expect(await run(child.backend, 'cat src/a.txt && echo changed > src/a.txt && cat src/a.txt')).toBe('one\nchanged\n');
    expect(await run(backend, 'cat src/a.txt')).toBe('one\n');
    expect(text(await provider.readSnapshotFile(snapshotId, 'src/a.txt'))).toBe('one\n');
  });

  it('a checkout is exactly its snapshot until it writes (its mount names the snapshot\'s layers, its writable layer is empty): a restore verified without a manifest', async () => {
    const { dir, provider, open, run } = await setup();
    const { backend } = await open();
    await run(backend, 'mkdir -p src && echo one > src/a.txt');
    const { snapshotId: first } = await provider.checkpoint(backend, { labels: {} });
    await run(backend, 'echo two > b.txt');
    const { snapshotId: second } = await provider.checkpoint(backend, { labels: {} });

    const child = await open(first);
    expect(await provider.restoredExactly(child.backend, first)).toBe(true);
    expect(await provider.restoredExactly(child.backend, second)).toBe(false); // another snapshot's layers
    await run(child.backend, 'echo changed > src/a.txt');
    expect(await provider.restoredExactly(child.backend, first)).toBe(false); // written since
    // A mount of other layers than the record says: the kernel's mount table is what is checked.
    const other = await open(second);
    await unmount(other.directory);
    expect(await provider.restoredExactly(other.backend, second)).toBe(false);
    // The copy store proves nothing this way: its restores are compared by manifest.
    const copies = createFsProvider({ root: join(dir, 'copy-workspaces'), snapshots: join(dir, 'copy-snapshots'), snapshotStore: 'copy', isolation: 'none' });
    const backendId = newBackendId();
    const made = await copies.create({ backendId, runtimeId: 'rt', options: {}, labels: labels(backendId) });
    live.push({ provider: copies, backendId, resource: made.resource });
    const { snapshotId } = await copies.checkpoint(made, { labels: {} });
    const copied = await copies.checkout({ backendId: newBackendId(), runtimeId: 'rt', options: {}, labels: labels(backendId), snapshotId });
    live.push({ provider: copies, backendId: 'copied', resource: copied.resource });
    expect(await copies.restoredExactly(copied, snapshotId)).toBe(false);
  });

  it('a sealed layer keeps the stat index of its own files only: a checkpoint writes what changed, a checkout copies none, and a walk of it trusts every file it did not change', async () => {
    const { dir, provider, open, run } = await setup();
    const { backend } = await open();
    await run(backend, 'mkdir src && for i in $(seq 20); do echo "file $i" > src/f$i.txt; done');
    const { snapshotId: first } = await provider.checkpoint(backend, { labels: {} });
    await run(backend, 'echo changed > src/f3.txt');
    const { snapshotId: second } = await provider.checkpoint(backend, { labels: {} });
    const layered = new LayeredSnapshots(join(dir, 'snapshots'));
    const indexed = async (snapshotId: string) => {
      const { top } = (await layered.snapshot(snapshotId))!;
      return Object.keys(JSON.parse(await readFile(join(dir, 'snapshots', 'layers', top, 'index.json'), 'utf8')).files).sort();
    };
    expect(await indexed(first)).toHaveLength(20);
    expect(await indexed(second)).toEqual(['src/f3.txt']);
    // No whole index is kept per snapshot, nor copied for a checkout.
    expect((await readdir(join(dir, 'snapshots', 'layered'))).filter((name) => name.endsWith('.index'))).toEqual([]);
    const before = await readdir(join(dir, 'snapshots', 'index')).catch(() => []);

    const child = await open(second);
    expect(await readdir(join(dir, 'snapshots', 'index')).catch(() => [])).toEqual(before);
    const name = (await readdir(join(dir, 'snapshots', 'live'))).find((entry) => entry !== undefined && child.directory.endsWith(entry))!;
    const known = await layered.knownHashes(name, { known: () => null });
    const hashOf = (text: string) => createHash('sha256').update(text).digest('hex');
    for (let i = 1; i <= 20; i++) {
      const info = await lstat(join(child.directory, 'src', `f${i}.txt`), { bigint: true });
      expect(known.known(`src/f${i}.txt`, info), `src/f${i}.txt`).toBe(hashOf(i === 3 ? 'changed\n' : `file ${i}\n`));
    }
    // Written since: its stat no longer matches what any layer sealed.
    await run(child.backend, 'echo again > src/f4.txt');
    expect(known.known('src/f4.txt', await lstat(join(child.directory, 'src', 'f4.txt'), { bigint: true }))).toBeNull();
  });

  it('reads by checkpoint share one read-only view of its layers, kept mounted between them; collecting layers unmounts it', async () => {
    const { dir, provider, open, run } = await setup();
    const { backend } = await open();
    await run(backend, 'echo one > a.txt; echo two > b.txt');
    const { snapshotId } = await provider.checkpoint(backend, { labels: {} });
    const views = () => readdir(join(dir, 'snapshots', 'views')).catch(() => [] as string[]);
    expect(text(await provider.readSnapshotFile(snapshotId, 'a.txt'))).toBe('one\n');
    expect(text(await provider.readSnapshotFile(snapshotId, 'b.txt'))).toBe('two\n');
    const [view, ...more] = await views();
    expect(more).toEqual([]);
    expect(await isMountPoint(join(dir, 'snapshots', 'views', view!))).toBe(true);
    // Detached behind its back (another process's collection): mounted again, never read as empty.
    await unmount(join(dir, 'snapshots', 'views', view!));
    expect(text(await provider.readSnapshotFile(snapshotId, 'a.txt'))).toBe('one\n');

    const { snapshotId: other } = await provider.checkpoint(backend, { labels: {} });
    await provider.deleteSnapshot(other);
    expect(await views()).toEqual([]);
  });

  it('a checkpoint while a background job writes seals a copy and leaves the job running', async () => {
    const { provider, open, run } = await setup();
    const { backend } = await open();
    await run(backend, 'echo kept > kept.txt; (while :; do date +%s%N >> log.txt; sleep 0.01; done) > /dev/null 2>&1 & until [ -s log.txt ]; do sleep 0.01; done');
    const { snapshotId } = await provider.checkpoint(backend, { labels: {} });
    expect(await backend.backgroundProcesses?.()).toBeGreaterThan(0);
    const child = await open(snapshotId);
    expect(await run(child.backend, 'cat kept.txt')).toBe('kept\n');
    expect(Number(await run(child.backend, 'wc -l < log.txt'))).toBeGreaterThan(0);
  });

  it('a checkpoint while a job writes throughout is one moment of its writes: its processes are frozen while the layer is copied, and go on after', async () => {
    const { provider, open, run } = await setup();
    const { backend } = await open();
    expect((await provider.settingsInForce()).jobs_at_checkpoint).toEqual({ value: 'frozen' });
    // The job writes its counter i to p00, p01 … p49 in turn, as fast as it can: at any one moment
    // the files read i down to some point and i − 1 after it (one may be caught empty, between its
    // truncation and its write). A copy made while the job runs reads them at different moments.
    await run(backend, 'for f in $(seq 1 100); do head -c 65536 /dev/zero > filler-$f; done; files=$(seq -f p%02g 0 49); (i=0; while :; do i=$((i+1)); for f in $files; do echo $i > $f; done; done) >/dev/null 2>&1 & until [ -s p49 ]; do sleep 0.01; done');
    for (let round = 1; round <= 4; round++) {
      const { snapshotId } = await provider.checkpoint(backend, { labels: {} });
      const child = await open(snapshotId);
      const values = (await run(child.backend, 'for f in $(seq -w 0 49); do printf "%s," "$(cat p$f)"; done')).split(',').slice(0, 50).filter(Boolean).map(Number);
      const oneMoment = values.every((value, index) => index === 0 || value <= values[index - 1]!) && Math.max(...values) - Math.min(...values) <= 1;
      expect(oneMoment, `checkpoint ${round}: p00…p49 = ${values.join(' ')}`).toBe(true);
    }
    const before = Number(await run(backend, 'cat p49'));
    await run(backend, `until [ "$(cat p49)" -gt ${before + 10} ] 2>/dev/null; do sleep 0.01; done`);
  });

  it('releasing unmounts the workspace and removes its upper layer; deleting the snapshots collects their layers', async () => {
    const { dir, provider, open, run, layers } = await setup();
    const { backend, backendId, directory } = await open();
    await run(backend, 'echo x > x');
    const first = await provider.checkpoint(backend, { labels: {} });
    await run(backend, 'echo y > y');
    const second = await provider.checkpoint(backend, { labels: {} });
    expect(await layers()).toHaveLength(3);
    await provider.release({ backendId, resource: backend.resource });
    live.splice(0);
    expect(await isMountPoint(directory)).toBe(false);
    expect(await readdir(join(dir, 'snapshots', 'live'))).toEqual([]);
    expect(await provider.deleteSnapshot(second.snapshotId)).toEqual({ deleted: true });
    expect(await layers()).toHaveLength(2); // the first snapshot still needs its layer
    expect(await provider.deleteSnapshot(first.snapshotId)).toEqual({ deleted: true });
    expect(await layers()).toEqual(['empty']);
  });

  it('a chain longer than the bound is flattened after its checkpoint answers: every chain stays short, every checkpoint checks out as it was, and the layers a live workspace is mounted on stay', async () => {
    const { dir, provider, open, run } = await setup('auto', { flattenPastLayers: 3 });
    const store = new LayerStore(join(dir, 'snapshots'));
    const topOf = async (snapshotId: string) => (JSON.parse(await readFile(join(dir, 'snapshots', 'layered', `${snapshotId}.json`), 'utf8')) as { top: string }).top;
    const { backend } = await open();
    const snapshots: string[] = [];
    for (let i = 1; i <= 7; i++) {
      await run(backend, `echo ${i} > f${i}; echo ${i} > last${i === 4 ? '; rm f2' : ''}`);
      snapshots.push((await provider.checkpoint(backend, { labels: {} })).snapshotId);
      expect(await provider.flattened()).toBeUndefined();
    }
    for (const [index, snapshotId] of snapshots.entries()) {
      expect((await store.chain(await topOf(snapshotId))).length, `checkpoint ${index + 1}'s chain`).toBeLessThanOrEqual(3);
      const child = await open(snapshotId);
      const files = Array.from({ length: index + 1 }, (_, n) => `f${n + 1}`).filter((file) => index < 3 || file !== 'f2');
      expect(await run(child.backend, 'cat last; ls f* | tr "\\n" " "'), `checkpoint ${index + 1}`).toBe(`${index + 1}\n${files.join(' ')} `);
      await provider.release({ backendId: child.backendId, resource: child.backend.resource });
    }
    // Nothing names the layers below a flattened one any more, but the live workspace is still
    // mounted on the chain it had: collecting keeps them.
    for (const snapshotId of snapshots) await provider.deleteSnapshot(snapshotId);
    expect(await run(backend, 'cat f1 f7 last')).toBe('1\n7\n7\n');
  });

  it('a flatten that fails is reported (the daemon logs it) and costs nothing but a longer chain: every checkpoint still answers and checks out', async () => {
    const failures: Error[] = [];
    const { provider, open, run } = await setup('auto', {
      flattenPastLayers: 2,
      crashPoint: (point) => {
        if (point === 'flatten-copied') throw new Error('no room for the flattened copy');
      },
      flattenFailed: (error) => failures.push(error),
    });
    const { backend } = await open();
    const snapshots: string[] = [];
    for (let i = 1; i <= 4; i++) {
      await run(backend, `echo ${i} > f${i}`);
      snapshots.push((await provider.checkpoint(backend, { labels: {} })).snapshotId);
      await provider.flattened();
    }
    // Chains of 3, 4 and 5 layers: each checkpoint past the bound tried again.
    expect(failures.map((error) => error.message)).toEqual(Array(3).fill('no room for the flattened copy'));
    expect((await provider.flattened())?.message).toBe('no room for the flattened copy');
    const child = await open(snapshots.at(-1));
    expect(await run(child.backend, 'cat f1 f2 f3 f4')).toBe('1\n2\n3\n4\n');
  });

  it('the workspace quota counts what a workspace wrote over its checkpoint (its upper layer), per child of a checkout', async () => {
    const MiB = 2 ** 20;
    const { provider, open, run } = await setup('auto', { workspaceQuotaBytes: 2 * MiB });
    const { backend } = await open();
    await backend.writeBytes('base.bin', new Uint8Array(1.5 * MiB).fill(1));
    const { snapshotId } = await provider.checkpoint(backend, { labels: {} });
    const children = [await open(snapshotId), await open(snapshotId)];
    for (const child of children) {
      // 1.5 MiB below it and 1 MiB written: over 2 MiB if the checkpoint's files counted.
      await child.backend.writeBytes('own.bin', new Uint8Array(MiB).fill(2));
      await run(child.backend, 'head -c 524288 /dev/zero > more.bin');
      const refused = await child.backend.writeBytes('too-much.bin', new Uint8Array(MiB)).then(() => null, (error: { code?: string }) => error);
      expect(refused?.code).toBe('workspace_quota_exceeded');
    }
  });

  it('attach mounts a workspace again whose mount is gone (a reboot), with what it had written', async () => {
    const { provider, open, run } = await setup('none');
    const { backend, backendId, directory } = await open();
    await run(backend, 'echo before > f');
    await unmount(directory);
    expect(await isMountPoint(directory)).toBe(false);
    const again = await provider.attach({ backendId, resource: backend.resource });
    expect(await isMountPoint(directory)).toBe(true);
    expect(await readFile(join(directory, 'f'), 'utf8')).toBe('before\n');
    expect(await run(again, 'cat f')).toBe('before\n');
  });
});
