/**
 * What a running command sees when its sandbox is killed or paused, through the real SDK. On E2B
 * the VM stops under envd: the command stream breaks without an `end` event, the SDK probes
 * `/health`, gets 502 and raises `TimeoutError`. A paused VM keeps its memory, so its processes
 * continue where they were once it resumes; a sandbox created from a snapshot starts without any.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { Sandbox, TimeoutError } from 'e2b';
import { describe, expect, it } from 'vitest';
import { useEmulator } from './support/emulator-fixture.js';
import { eventually } from './support/eventually.js';

const fixture = useEmulator();

/** The state letter of a host process (`T` stopped, `S` sleeping …), or undefined when gone. */
async function processState(pid: number): Promise<string | undefined> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  return stat?.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
}

async function hostPathOf(sandbox: Sandbox, sandboxPath: string): Promise<string> {
  const entry = (await fixture.emulator.state()).sandboxes.find((item) => item.sandboxId === sandbox.sandboxId);
  if (!entry) throw new Error(`sandbox ${sandbox.sandboxId} is not in the emulator state`);
  return path.join(entry.directory, sandboxPath);
}

describe('a command running when its sandbox is killed or paused', () => {
  for (const action of ['kill', 'pause'] as const) {
    it(`${action} breaks the command stream: the SDK raises TimeoutError (sandbox gone), not CommandExitError`, async () => {
      const sandbox = await Sandbox.create(fixture.sdk);
      const handle = await sandbox.commands.run('sleep 30', { background: true });
      await (action === 'kill' ? sandbox.kill() : sandbox.pause());
      const error = await handle.wait().catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(TimeoutError);
      expect((error as Error).message).toMatch(/killed or reached its end of life/);
      await Sandbox.kill(sandbox.sandboxId, fixture.sdk);
    });
  }

  it('pause freezes the processes and resume continues them; a snapshot taken meanwhile leaves them frozen', async () => {
    const sandbox = await Sandbox.create(fixture.sdk);
    // Waits for a file the test creates, then leaves a mark: it can only do so while it runs.
    const handle = await sandbox.commands.run(
      'while [ ! -e /home/user/go ]; do sleep 0.05; done; echo survived > /home/user/survived',
      { background: true },
    );
    await sandbox.pause();
    const stopped = () => eventually(async () => (await processState(handle.pid)) === 'T');
    expect(await stopped()).toBe(true);
    const snapshot = await sandbox.createSnapshot();
    await delay(100); // a SIGCONT after the copy would show by now
    expect(await stopped()).toBe(true);
    await writeFile(await hostPathOf(sandbox, '/home/user/go'), '');
    await delay(500);
    const marker = await hostPathOf(sandbox, '/home/user/survived');
    expect(await readFile(marker, 'utf8').catch(() => 'not written')).toBe('not written');

    const child = await Sandbox.create(snapshot.snapshotId, fixture.sdk);
    expect(await child.commands.list()).toEqual([]);

    const resumed = await Sandbox.connect(sandbox.sandboxId, fixture.sdk);
    expect(await eventually(async () => (await readFile(marker, 'utf8').catch(() => '')) === 'survived\n')).toBe(true);
    expect(await resumed.files.read('/home/user/survived')).toBe('survived\n');
    await child.kill();
    await resumed.kill();
    expect(await Sandbox.deleteSnapshot(snapshot.snapshotId, fixture.sdk)).toBe(true);
  });
});
