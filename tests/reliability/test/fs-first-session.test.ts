import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { RuntimectlClient } from '@runtimectl/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRuntimed, type RuntimedProcess } from '../support/processes';

// The README's first session on a fresh machine: a real runtimed with no provider flag (fs is
// the default), driven by the real client, with real shell commands. What a shell wrote is in
// the snapshot, the checkout, and the runtime after pause and resume; close releases it all.
let daemon: RuntimedProcess;
let client: RuntimectlClient;

const text = (base64: string) => Buffer.from(base64, 'base64').toString();
const sh = async (runtimeId: string, command: string) => {
  const result = await client.exec({ runtime_id: runtimeId, command, timeout_ms: 30_000 });
  expect(result.exit_code, text(result.stderr_base64)).toBe(0);
  return text(result.stdout_base64);
};

beforeAll(async () => {
  daemon = await startRuntimed();
  client = new RuntimectlClient({ baseUrl: daemon.url });
});

afterAll(async () => {
  if (daemon) expect(await daemon.stop(), 'runtimed exit code').toBe(0);
});

/** The snapshot store the fs provider chose on this machine (auto: layers where overlayfs mounts). */
async function snapshotStore(): Promise<string | undefined> {
  return (await client.providers()).providers.find((entry) => entry.provider === 'fs')?.in_force?.snapshot_store?.value;
}

describe('the fs provider over HTTP (the default provider)', () => {
  it('a file `echo hi > a.txt` wrote is in the checkout, pause then resume keeps the files, close releases every workspace', async () => {
    expect(daemon.banner).toContain('providers: local, fs (default)');
    const fs = (await client.providers()).providers.find((entry) => entry.provider === 'fs');
    expect(fs?.capabilities).toMatchObject({ checkout: true, pause: true, snapshot_kind: 'filesystem' });
    // What the start line says is in force, GET /providers says too (the default store, auto:
    // layers where overlayfs can be mounted, else copy and why).
    const store = fs?.in_force?.snapshot_store;
    if (store?.value === 'copy') expect(store.reason).toEqual(expect.any(String));
    else expect(store).toEqual({ value: 'layers' });
    expect(daemon.banner).toContain(`fs snapshots: ${store?.value}`);
    expect(daemon.banner).toContain(`fs isolation: ${fs?.in_force?.isolation?.value}`);

    const { runtime } = await client.open({ runtime_id: 'demo', conversation_id: 'c1', sender_id: 'me' });
    const id = runtime.runtime_id;
    await client.writeFile({ runtime_id: id, path: 'notes.txt', content_base64: Buffer.from('written\n').toString('base64') });
    await sh(id, 'echo hi > a.txt && mkdir -p src && ln -s ../a.txt src/link');
    expect(await sh(id, 'cat a.txt notes.txt src/link')).toBe('hi\nwritten\nhi\n');

    const { checkpoint_id } = await client.checkpoint({ runtime_id: id, name: 'first' });
    await sh(id, 'echo later > a.txt');
    const { runtime: child } = await client.checkout({ checkpoint_id, conversation_id: 'c2', sender_id: 'me' });
    expect(await sh(child.runtime_id, 'cat a.txt src/link')).toBe('hi\nhi\n');

    const paused = await client.pause({ runtime_id: id });
    expect(paused.runtime.status).toBe('paused');
    const resumed = await client.resume({ runtime_id: id });
    expect(resumed.runtime.status).toBe('idle');
    expect(await sh(id, 'cat a.txt notes.txt && test -L src/link && echo link')).toBe('later\nwritten\nlink\n');

    await client.close({ runtime_id: child.runtime_id });
    await client.close({ runtime_id: id });
    const workspaces = join(daemon.stateDir, 'fs', 'workspaces');
    expect(existsSync(join(daemon.stateDir, 'fs', 'snapshots', (await snapshotStore()) === 'layers' ? 'layers' : 'manifests'))).toBe(true);
    expect(readdirSync(workspaces).filter((name) => !name.startsWith('.'))).toEqual([]);
  });

  it('a checkpoint keeps the FIFO `mkfifo` made (layers) or lists it in skipped_paths (copy), and the checkout has every other file', async () => {
    const { runtime } = await client.open({ conversation_id: 'c3', sender_id: 'me' });
    const id = runtime.runtime_id;
    await sh(id, 'mkdir -p run && mkfifo run/pipe && echo kept > run/file');
    const checkpoint = await client.checkpoint({ runtime_id: id });
    const layers = (await snapshotStore()) === 'layers';
    if (layers) expect(checkpoint).not.toHaveProperty('skipped_paths');
    else expect(checkpoint.skipped_paths).toEqual([{ path: 'run/pipe', kind: 'fifo' }]);
    const { runtime: child } = await client.checkout({ checkpoint_id: checkpoint.checkpoint_id });
    expect(await sh(child.runtime_id, 'cat run/file; test -p run/pipe && echo pipe || echo no-pipe')).toBe(`kept\n${layers ? 'pipe' : 'no-pipe'}\n`);
    const clean = await client.checkpoint({ runtime_id: child.runtime_id });
    expect(clean).not.toHaveProperty('skipped_paths');
    await client.close({ runtime_id: child.runtime_id });
    await client.close({ runtime_id: id });
  });
});
