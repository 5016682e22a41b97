/** Snapshots through the real e2b SDK: create, list, create-from, delete (true / false / 400 in use). */
import { existsSync } from 'node:fs';
import { Sandbox, SandboxError, SandboxNotFoundError } from 'e2b';
import { describe, expect, it } from 'vitest';
import { useEmulator } from './support/emulator-fixture.js';

const fixture = useEmulator({ teamSlug: 'acme' });

describe('snapshots with the real e2b SDK', () => {
  it('a sandbox created from a snapshot sees the snapshotted bytes, not later writes', async () => {
    const source = await Sandbox.create(fixture.sdk);
    await source.files.write('/home/user/state.txt', 'version 1');
    await source.commands.run('mkdir -p /tmp/cache && echo warm > /tmp/cache/flag');
    const snapshot = await source.createSnapshot();
    expect(snapshot.snapshotId).toMatch(/^[a-z0-9]{20}:default$/);
    expect(snapshot.names).toEqual([]);
    await source.files.write('/home/user/state.txt', 'version 2');

    const child = await Sandbox.create(snapshot.snapshotId, fixture.sdk);
    expect(await child.files.read('/home/user/state.txt')).toBe('version 1');
    expect((await child.commands.run('cat /tmp/cache/flag')).stdout).toBe('warm\n');
    expect((await child.getInfo()).templateId).toBe(snapshot.snapshotId.replace(':default', ''));
    expect(await source.files.read('/home/user/state.txt')).toBe('version 2');

    await child.kill();
    await source.kill();
    expect(await Sandbox.deleteSnapshot(snapshot.snapshotId, fixture.sdk)).toBe(true);
  });

  it('a snapshot keeps named pipes (a real VM snapshot keeps every file) and a sandbox created from it has them', async () => {
    const source = await Sandbox.create(fixture.sdk);
    await source.commands.run('mkdir -p /tmp/ipc && mkfifo -m 600 /tmp/ipc/requests && echo data > /tmp/ipc/file');
    const snapshot = await source.createSnapshot();
    const child = await Sandbox.create(snapshot.snapshotId, fixture.sdk);
    const check = await child.commands.run('test -p /tmp/ipc/requests && stat -c %a /tmp/ipc/requests && cat /tmp/ipc/file');
    expect(check.stdout).toBe('600\ndata\n');
    await child.kill();
    await source.kill();
    expect(await Sandbox.deleteSnapshot(snapshot.snapshotId, fixture.sdk)).toBe(true);
  });

  it('a named snapshot is <team>/<name>:default and can be used by any of its names', async () => {
    const source = await Sandbox.create(fixture.sdk);
    const snapshot = await source.createSnapshot({ name: 'my-snap' });
    expect(snapshot).toEqual({ snapshotId: 'acme/my-snap:default', names: ['acme/my-snap:default'] });
    await source.kill();
    for (const reference of ['acme/my-snap:default', 'acme/my-snap', 'my-snap']) {
      const sandbox = await Sandbox.create(reference, fixture.sdk);
      await sandbox.kill();
    }
    const unknownTag = await Sandbox.create('acme/my-snap:v9', fixture.sdk).catch((error: unknown) => error);
    expect((unknownTag as SandboxError).message).toContain("404: tag 'v9' does not exist");
    expect(await Sandbox.deleteSnapshot(snapshot.snapshotId, fixture.sdk)).toBe(true);
  });

  it('listSnapshots filters by source sandbox and pages', async () => {
    const source = await Sandbox.create(fixture.sdk);
    const taken = [];
    for (let index = 0; index < 3; index += 1) taken.push((await source.createSnapshot()).snapshotId);
    const seen: string[] = [];
    const paginator = Sandbox.listSnapshots({ ...fixture.sdk, sandboxId: source.sandboxId, limit: 2 });
    let pages = 0;
    while (paginator.hasNext) {
      seen.push(...(await paginator.nextItems()).map((info) => info.snapshotId));
      pages += 1;
    }
    expect(pages).toBe(2);
    expect(seen.sort()).toEqual([...taken].sort());
    expect(await source.listSnapshots().nextItems()).toHaveLength(3);
    await source.kill();
    for (const snapshotId of taken) expect(await Sandbox.deleteSnapshot(snapshotId, fixture.sdk)).toBe(true);
  });

  it('deleteSnapshot answers false for an unknown id and 400 while a running or paused sandbox uses it', async () => {
    expect(await Sandbox.deleteSnapshot('acme/never-existed:default', fixture.sdk)).toBe(false);

    const source = await Sandbox.create(fixture.sdk);
    const snapshot = await source.createSnapshot({ name: 'in-use' });
    await source.kill();
    const user = await Sandbox.create(snapshot.snapshotId, fixture.sdk);

    const whileRunning = await Sandbox.deleteSnapshot(snapshot.snapshotId, fixture.sdk).catch((error: unknown) => error);
    expect(whileRunning).toBeInstanceOf(SandboxError);
    expect((whileRunning as SandboxError).statusCode).toBe(400);
    expect((whileRunning as SandboxError).message).toContain('running or paused sandboxes');

    await user.pause();
    await expect(Sandbox.deleteSnapshot(snapshot.snapshotId, fixture.sdk)).rejects.toThrow(/400: cannot delete/);

    await user.kill();
    const directory = (await fixture.emulator.state()).snapshots.find((entry) => entry.snapshotId === snapshot.snapshotId)?.directory;
    expect(directory && existsSync(directory)).toBe(true);
    expect(await Sandbox.deleteSnapshot(snapshot.snapshotId, fixture.sdk)).toBe(true);
    expect(existsSync(directory as string)).toBe(false);
    await expect(Sandbox.create(snapshot.snapshotId, fixture.sdk)).rejects.toThrow(/404: template/);
  });

  it('snapshotting an unknown sandbox is SandboxNotFoundError; the snapshot outlives its sandbox', async () => {
    await expect(Sandbox.createSnapshot('idoesnotexist0000000', fixture.sdk)).rejects.toBeInstanceOf(SandboxNotFoundError);
    const source = await Sandbox.create(fixture.sdk);
    const snapshot = await source.createSnapshot();
    await source.kill();
    const state = await fixture.emulator.state();
    expect(state.snapshots.find((entry) => entry.snapshotId === snapshot.snapshotId)).toMatchObject({
      sourceSandboxId: source.sandboxId,
      names: [],
    });
    expect(await Sandbox.deleteSnapshot(snapshot.snapshotId, fixture.sdk)).toBe(true);
  });

  it('snapshotting again under a taken name makes a new build that later sandboxes start from', async () => {
    const source = await Sandbox.create(fixture.sdk);
    await source.files.write('/home/user/build.txt', 'one');
    const first = await source.createSnapshot({ name: 'rolling' });
    const fromFirst = await Sandbox.create(first.snapshotId, fixture.sdk);
    await source.files.write('/home/user/build.txt', 'two');
    const second = await source.createSnapshot({ name: 'rolling' });
    expect(second.snapshotId).toBe(first.snapshotId);
    const fromSecond = await Sandbox.create(second.snapshotId, fixture.sdk);
    expect(await fromSecond.files.read('/home/user/build.txt')).toBe('two');
    expect(await fromFirst.files.read('/home/user/build.txt')).toBe('one');
    for (const sandbox of [source, fromFirst, fromSecond]) await sandbox.kill();
    expect(await Sandbox.deleteSnapshot(first.snapshotId, fixture.sdk)).toBe(true);
  });
});
