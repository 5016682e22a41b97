/** A sandbox command's environment never steers the host side of its launch (nsenter, the cgroup shell). */
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Sandbox } from 'e2b';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useEmulator } from './support/emulator-fixture.js';

const fixture = useEmulator();
let sandbox: Sandbox;
let trap: string;

beforeAll(async () => {
  sandbox = await Sandbox.create(fixture.sdk);
  // A program named nsenter where a caller's PATH points: run on the host, it would leave a mark.
  trap = mkdtempSync(join(tmpdir(), 'emulator-path-trap-'));
  writeFileSync(join(trap, 'nsenter'), `#!/bin/sh\ntouch "${join(trap, 'ran')}"\nexec /usr/bin/nsenter "$@"\n`);
  chmodSync(join(trap, 'nsenter'), 0o755);
});
afterAll(async () => {
  await sandbox.kill();
  rmSync(trap, { recursive: true, force: true });
});

describe('the host side of a command launch', () => {
  it("never looks up a program in the command's PATH nor loads its LD_PRELOAD, for commands and PTYs; the command still gets both", async () => {
    const envs = { PATH: `${trap}:/usr/bin:/bin`, LD_PRELOAD: join(trap, 'missing.so') };
    const result = await sandbox.commands.run('printf "%s|%s" "$PATH" "$LD_PRELOAD"', { envs });
    expect(result.stdout).toBe(`${envs.PATH}|${envs.LD_PRELOAD}`);
    let output = '';
    const terminal = await sandbox.pty.create({ cols: 80, rows: 24, envs, onData: (data) => void (output += Buffer.from(data).toString()) });
    await sandbox.pty.sendInput(terminal.pid, new TextEncoder().encode('exit\n'));
    await terminal.wait().catch(() => undefined);
    expect(existsSync(join(trap, 'ran')), output).toBe(false);
  });
});
