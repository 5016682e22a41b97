/**
 * The built bin as a real process on a free port: the SDK talks to it and the admin client
 * drives its knobs over HTTP. Needs `pnpm run build` first (turbo's test depends on build).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Sandbox } from 'e2b';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { E2BEmulatorAdminClient, E2BEmulatorAdminError, type EmulatorStateView } from '../src/index.js';

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'bin.js');

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

interface Ready {
  apiUrl: string;
  sandboxUrl: string;
  port: number;
  root: string;
  isolation: EmulatorStateView['isolation'];
}

let child: ChildProcessWithoutNullStreams;
let ready: Ready;
let port: number;

beforeAll(async () => {
  expect(existsSync(BIN), `${BIN} is missing: run pnpm run build`).toBe(true);
  port = await freePort();
  child = spawn(process.execPath, [BIN, '--port', String(port), '--latency', 'snapshot=250', '--max-sandboxes', '3']);
  ready = await new Promise<Ready>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.once('line', (line) => resolve(JSON.parse(line) as Ready));
    child.once('exit', (code) => reject(new Error(`e2b-emulator exited early with ${code}`)));
  });
});

afterAll(async () => {
  if (child.exitCode !== null) return;
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  expect(await exited).toBe(0);
  expect(existsSync(ready.root)).toBe(false);
});

describe('the e2b-emulator bin', () => {
  it('listens on the requested port and announces its URLs as one JSON line', () => {
    expect(ready.port).toBe(port);
    expect(ready.apiUrl).toBe(`http://127.0.0.1:${port}`);
    expect(ready.sandboxUrl).toBe(ready.apiUrl);
  });

  it('serves the real SDK and applies its flags; the admin client sees and drives it over HTTP', async () => {
    const sdk = { apiKey: 'any', apiUrl: ready.apiUrl, sandboxUrl: ready.sandboxUrl };
    const admin = new E2BEmulatorAdminClient(ready.apiUrl);
    const sandbox = await Sandbox.create({ ...sdk, metadata: { via: 'bin' } });
    expect((await sandbox.commands.run('echo hi > /home/user/f && cat /home/user/f')).stdout).toBe('hi\n');

    const started = performance.now();
    const snapshot = await sandbox.createSnapshot();
    expect(performance.now() - started).toBeGreaterThanOrEqual(250);

    const state = await admin.state();
    expect(state.maxSandboxes).toBe(3);
    expect(state.latencyMs.snapshot).toBe(250);
    expect(state.sandboxes).toEqual([expect.objectContaining({ sandboxId: sandbox.sandboxId, metadata: { via: 'bin' }, state: 'running' })]);
    expect(state.snapshots.map((entry) => entry.snapshotId)).toEqual([snapshot.snapshotId]);
    expect(state.calls.snapshot).toBe(1);

    await admin.failNext('kill', { status: 500, message: 'forced' });
    await expect(sandbox.kill()).rejects.toThrow('500: forced');
    expect(await sandbox.kill()).toBe(true);
    expect(await Sandbox.deleteSnapshot(snapshot.snapshotId, sdk)).toBe(true);
  });

  it('the admin client reports refused requests with status and message', async () => {
    const admin = new E2BEmulatorAdminClient(ready.apiUrl);
    const error = await admin.failNext('create', { status: 200 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(E2BEmulatorAdminError);
    expect((error as E2BEmulatorAdminError).status).toBe(400);
    expect(await admin.expireSandbox('inotasandbox00000000')).toBe(false);
    await admin.setLatency('create', 0);
    await admin.reset();
    expect((await admin.state()).calls.kill).toBe(0);
  });
});
