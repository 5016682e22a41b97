import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RuntimectlError } from '@runtimectl/core';
import { createBackend, eventually, localProvider, text, useTemporaryDirectories, utf8 } from './local-fixture';

const KiB = 1024;
const QUOTA = 512 * KiB;

async function refusal(work: Promise<unknown>): Promise<RuntimectlError> {
  const error = await work.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(RuntimectlError.isInstance(error), `expected a refusal, got ${String(error)}`).toBe(true);
  return error as RuntimectlError;
}

describe('local provider workspace quota', () => {
  const temporary = useTemporaryDirectories();

  it('refuses a write that would take the workspace over its quota, with workspace_quota_exceeded and no host path', async () => {
    const { provider } = await localProvider(temporary, { workspaceQuotaBytes: QUOTA });
    const { backend } = await createBackend(provider);
    await backend.writeBytes('a.bin', new Uint8Array(300 * KiB));
    const error = await refusal(backend.writeBytes('b.bin', new Uint8Array(300 * KiB)));
    expect(error.code).toBe('workspace_quota_exceeded');
    expect(error.details).toMatchObject({ path: 'b.bin', quota_bytes: QUOTA });
    expect(JSON.stringify(error.details) + error.message).not.toContain(backend.resource.workspace as string);
    expect((await backend.stat('b.bin')).exists).toBe(false);
  });

  it('lets a write replace a file within the quota (the old bytes are not counted twice)', async () => {
    const { provider } = await localProvider(temporary, { workspaceQuotaBytes: QUOTA });
    const { backend } = await createBackend(provider);
    await backend.writeBytes('a.bin', new Uint8Array(400 * KiB));
    await backend.writeBytes('a.bin', new Uint8Array(450 * KiB));
    expect((await backend.stat('a.bin')).sizeBytes).toBe(450 * KiB);
  });

  it('stops a command that fills the disk (yes > fill.bin) near the quota and says so on stderr', async () => {
    const { provider, root } = await localProvider(temporary, { workspaceQuotaBytes: QUOTA });
    const { backend } = await createBackend(provider);
    const started = Date.now();
    const result = await backend.exec({ command: 'yes > fill.bin', timeoutMs: 10_000, maxOutputBytes: 64 * KiB });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(result.timedOut).toBe(false);
    expect(result.exitCode).not.toBe(0);
    expect(text(result.stderr)).toContain('workspace quota');
    const size = (await stat(join(root, backend.resource.workspace as string, 'fill.bin'))).size;
    expect(size).toBeLessThanOrEqual(QUOTA);
  });

  it('kills a command that spreads the quota over many files, reports it, and lets a later command clean up', async () => {
    const refused: string[] = [];
    const { provider } = await localProvider(temporary, { workspaceQuotaBytes: QUOTA, quotaObserver: { refused: (operation) => refused.push(operation) } });
    const { backend } = await createBackend(provider);
    const result = await backend.exec({
      command: 'i=0; while true; do i=$((i+1)); head -c 65536 /dev/zero > part-$i.bin; done',
      timeoutMs: 10_000,
      maxOutputBytes: 64 * KiB,
    });
    expect(result.timedOut).toBe(false);
    expect(result.exitCode).toBeNull();
    expect(text(result.stderr)).toContain('workspace quota of 524288 bytes reached: the command was stopped');
    expect(refused).toEqual(['exec']);
    const cleanup = await backend.exec({ command: 'rm -f part-*.bin && echo clean', timeoutMs: 10_000, maxOutputBytes: 64 * KiB });
    expect(text(cleanup.stdout)).toBe('clean\n');
    await backend.writeBytes('after.txt', utf8('fits again'));
  });

  it('stops a background job that fills the workspace after exec returned', async () => {
    const { provider } = await localProvider(temporary, { workspaceQuotaBytes: QUOTA });
    const { backend } = await createBackend(provider);
    const started = await backend.exec({
      command: "nohup sh -c 'i=0; while true; do i=$((i+1)); head -c 65536 /dev/zero > bg-$i.bin; sleep 0.01; done' >/dev/null 2>&1 & echo $!",
      timeoutMs: 10_000,
      maxOutputBytes: 64 * KiB,
    });
    const pid = Number(text(started.stdout).trim());
    // A liveness bound (the watchdog samples every few seconds; a loaded CI machine stretches it), not a latency target.
    // `$!` is a pid of the sandbox's own PID namespace: ask from inside whether it still runs.
    const running = async () => text((await backend.exec({ command: `kill -0 ${pid} 2>/dev/null && echo alive || echo gone`, timeoutMs: 10_000, maxOutputBytes: KiB })).stdout).trim() === 'alive';
    expect(await eventually(async () => !(await running()), 30_000)).toBe(true);
    const usage = await backend.exec({ command: 'du -sk . | cut -f1', timeoutMs: 10_000, maxOutputBytes: 64 * KiB });
    // Background jobs are sampled once a second: the overshoot is what this one writes in about a second.
    expect(Number(text(usage.stdout).trim()) * KiB).toBeLessThan(QUOTA + 4096 * KiB);
  }, 60_000);

  it('reports usage and refusals to its observer', async () => {
    const events: string[] = [];
    const { provider } = await localProvider(temporary, {
      workspaceQuotaBytes: QUOTA,
      quotaObserver: { refused: (operation) => events.push(`refused:${operation}`) },
    });
    const { backend } = await createBackend(provider);
    await refusal(backend.writeBytes('big.bin', new Uint8Array(QUOTA + 1)));
    expect(events).toEqual(['refused:write']);
    expect(provider.workspaceUsage().bytesUsed).toBeGreaterThanOrEqual(0);
  });

  it('refuses a write that would create one entry more than the inode quota, with workspace_quota_exceeded and quota_inodes', async () => {
    const { provider } = await localProvider(temporary, { workspaceQuotaBytes: 0, workspaceQuotaInodes: 5 });
    const { backend } = await createBackend(provider);
    // The workspace directory is one entry: four files fill the quota.
    for (const name of ['a', 'b', 'c', 'd']) await backend.writeBytes(name, utf8(name));
    await backend.writeBytes('a', utf8('replacing a file creates nothing'));
    const error = await refusal(backend.writeBytes('e', utf8('e')));
    expect(error.code).toBe('workspace_quota_exceeded');
    expect(error.details).toMatchObject({ path: 'e', quota_inodes: 5 });
    expect(error.message).toContain('5 files, directories and links');
    expect((await backend.stat('e')).exists).toBe(false);
  });

  it('counts the parent directories a write creates against the inode quota, and creates none of them when it refuses', async () => {
    const { provider } = await localProvider(temporary, { workspaceQuotaBytes: 0, workspaceQuotaInodes: 5 });
    const { backend } = await createBackend(provider);
    // The workspace directory, a/, a/b/ and a/b/file: four of five.
    await backend.writeBytes('a/b/file', utf8('1'));
    const error = await refusal(backend.writeBytes('x/y/z/file', utf8('2')));
    expect(error.code).toBe('workspace_quota_exceeded');
    expect(error.details).toMatchObject({ quota_inodes: 5 });
    expect((await backend.stat('x')).exists).toBe(false);
    // Refused again and again, a write still leaves nothing behind.
    for (let attempt = 0; attempt < 3; attempt += 1) await refusal(backend.writeBytes(`p${attempt}/q/file`, utf8('3')));
    for (const name of ['p0', 'p1', 'p2']) expect((await backend.stat(name)).exists).toBe(false);
  });

  it('refuses create-dir past the inode quota, for the directory and for each parent it would make', async () => {
    const { provider } = await localProvider(temporary, { workspaceQuotaBytes: 0, workspaceQuotaInodes: 3 });
    const { backend } = await createBackend(provider);
    await backend.createDirAll('one/two');
    const error = await refusal(backend.createDirAll('three'));
    expect(error.code).toBe('workspace_quota_exceeded');
    expect((await backend.stat('three')).exists).toBe(false);
    await backend.createDirAll('one/two');
    await refusal(backend.createDirAll('four/five'));
    expect((await backend.stat('four')).exists).toBe(false);
  });

  it('stops a command that creates entries past the inode quota (an empty file costs no block, only an inode), and says so', async () => {
    const { provider } = await localProvider(temporary, { workspaceQuotaBytes: 0, workspaceQuotaInodes: 200 });
    const { backend } = await createBackend(provider);
    const result = await backend.exec({ command: 'i=0; while true; do i=$((i+1)); : > empty-$i; done', timeoutMs: 20_000, maxOutputBytes: 64 * KiB });
    expect(result.timedOut).toBe(false);
    expect(result.exitCode).toBeNull();
    expect(text(result.stderr)).toContain('workspace quota of 200 files, directories and links reached: the command was stopped');
    const cleanup = await backend.exec({ command: 'rm -f empty-* && echo clean', timeoutMs: 10_000, maxOutputBytes: 64 * KiB });
    expect(text(cleanup.stdout)).toBe('clean\n');
  });

  it('has no quota with workspaceQuotaBytes and workspaceQuotaInodes 0', async () => {
    const { provider } = await localProvider(temporary, { workspaceQuotaBytes: 0, workspaceQuotaInodes: 0 });
    const { backend } = await createBackend(provider);
    await backend.writeBytes('a.bin', new Uint8Array(2 * QUOTA));
  });
});
