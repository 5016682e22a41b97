import { execFileSync, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseCommandOutput } from './command-outcome';
import { commandScript, type CommandScriptRequest } from './command-script';

// The script runs here under a real bash, as envd would run it (`/bin/bash -c <script>`), so these
// tests pin down what the sandbox sees without an emulator in between.
const directories: string[] = [];
afterEach(async () => {
  for (const directory of directories.splice(0)) await rm(directory, { recursive: true, force: true });
});

async function scratch(): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), 'rtctl-script-'));
  directories.push(directory);
  return directory;
}

function runScript(request: Partial<CommandScriptRequest> & { command: string; cwd: string }, path = process.env.PATH) {
  const script = commandScript({ shell: '/bin/bash', env: {}, maxOutputBytes: 1024, killGraceMs: 200, ...request });
  return new Promise<{ stdout: string; code: number | null; elapsedMs: number }>((resolve, reject) => {
    const startedAt = Date.now();
    const child = spawn('/bin/bash', ['-c', script], { stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: path } });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ stdout, code, elapsedMs: Date.now() - startedAt }));
  });
}

const isAlive = async (pid: number) => {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
};

describe('the exec command script', () => {
  it('returns every byte value of stdout unchanged and stderr apart, with the exit code', async () => {
    const cwd = await scratch();
    await writeFile(join(cwd, 'bytes.bin'), Uint8Array.from({ length: 256 }, (_, index) => index));
    const { stdout, code } = await runScript({ cwd, command: 'cat bytes.bin; echo oops >&2; exit 7' });
    const outcome = parseCommandOutput(stdout, 1024);
    expect(code).toBe(7);
    expect(outcome.kind).toBe('result');
    if (outcome.kind !== 'result') return;
    expect([...outcome.result.stdout]).toEqual([...Uint8Array.from({ length: 256 }, (_, index) => index)]);
    expect(Buffer.from(outcome.result.stderr).toString()).toBe('oops\n');
    expect(outcome.result).toMatchObject({ exitCode: 7, timedOut: false, truncated: false });
  });

  it('passes exactly the requested variables, quoted, and runs in cwd', async () => {
    const cwd = await scratch();
    const value = `it's "quoted" $HOME \`x\``;
    const { stdout } = await runScript({ cwd, command: 'printf %s "$GREETING"; pwd >&2', env: { GREETING: value } });
    const outcome = parseCommandOutput(stdout, 1024);
    if (outcome.kind !== 'result') throw new Error(`unexpected ${outcome.kind}`);
    expect(Buffer.from(outcome.result.stdout).toString()).toBe(value);
    expect(Buffer.from(outcome.result.stderr).toString()).toBe(`${cwd}\n`);
  });

  it('gives every command the marker its background processes are counted by, whatever the request asks', async () => {
    const cwd = await scratch();
    const { stdout } = await runScript({ cwd, command: 'printf %s "$RUNTIMECTL_EXEC"', env: { RUNTIMECTL_EXEC: 'overridden' } });
    const outcome = parseCommandOutput(stdout, 1024);
    if (outcome.kind !== 'result') throw new Error(`unexpected ${outcome.kind}`);
    expect(Buffer.from(outcome.result.stdout).toString()).toBe('1');
  });

  it('cuts output at the cap but lets the command run to its end', async () => {
    const cwd = await scratch();
    const { stdout } = await runScript({ cwd, command: 'head -c 10000000 /dev/zero; echo done >&2', maxOutputBytes: 100 });
    const outcome = parseCommandOutput(stdout, 100);
    if (outcome.kind !== 'result') throw new Error(`unexpected ${outcome.kind}`);
    expect(outcome.result.stdout.byteLength).toBe(100);
    expect(outcome.result).toMatchObject({ exitCode: 0, truncated: true });
    expect(Buffer.from(outcome.result.stderr).toString()).toBe('done\n');
  });

  it('keeps output that arrives in many small pieces whole, and cuts it at exactly the cap', async () => {
    const cwd = await scratch();
    const command = 'for i in $(seq 1 40); do echo step $i; sleep 0.01; done; echo DONE';
    const expected = `${Array.from({ length: 40 }, (_, index) => `step ${index + 1}\n`).join('')}DONE\n`;
    const whole = parseCommandOutput((await runScript({ cwd, command })).stdout, 1024);
    if (whole.kind !== 'result') throw new Error(`unexpected ${whole.kind}`);
    expect(Buffer.from(whole.result.stdout).toString()).toBe(expected);
    expect(whole.result.truncated).toBe(false);
    const cut = parseCommandOutput((await runScript({ cwd, command, maxOutputBytes: 100 })).stdout, 100);
    if (cut.kind !== 'result') throw new Error(`unexpected ${cut.kind}`);
    expect(Buffer.from(cut.result.stdout).toString()).toBe(expected.slice(0, 100));
    expect(cut.result).toMatchObject({ exitCode: 0, truncated: true });
  });

  it('kills the whole process group at the timeout, even a child ignoring SIGTERM', async () => {
    const cwd = await scratch();
    const { stdout, elapsedMs } = await runScript({
      cwd,
      command: "trap '' TERM; sleep 30 & echo $! > child.pid; wait; wait",
      timeoutMs: 300,
    });
    expect(parseCommandOutput(stdout, 1024)).toMatchObject({ kind: 'result', result: { timedOut: true, exitCode: null } });
    expect(elapsedMs).toBeLessThan(5_000);
    const child = Number((await readFile(join(cwd, 'child.pid'), 'utf8')).trim());
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await isAlive(child)).toBe(false);
  });

  it("kills a child ignoring SIGTERM before answering, although the command's own shell exits at SIGTERM", async () => {
    const cwd = await scratch();
    const { stdout } = await runScript({ cwd, command: `sh -c "trap '' TERM; exec sleep 30" & echo $! > child.pid; wait`, timeoutMs: 300 });
    expect(parseCommandOutput(stdout, 1024)).toMatchObject({ kind: 'result', result: { timedOut: true, exitCode: null } });
    const child = Number((await readFile(join(cwd, 'child.pid'), 'utf8')).trim());
    // No grace here: the next command must find the killed one gone (a fork bomb's processes held the process limit).
    expect(await isAlive(child)).toBe(false);
  });

  it('returns once the command exits although a background job still holds its output', async () => {
    const cwd = await scratch();
    const { stdout, elapsedMs } = await runScript({ cwd, command: 'sleep 5 & echo started' });
    const outcome = parseCommandOutput(stdout, 1024);
    if (outcome.kind !== 'result') throw new Error(`unexpected ${outcome.kind}`);
    expect(Buffer.from(outcome.result.stdout).toString()).toBe('started\n');
    expect(elapsedMs).toBeLessThan(3_000);
  });

  it('keeps the whole output of a command that exited before its output was copied (a loaded machine)', async () => {
    // Every `dd` of the output copy starts 300 ms late, as on a machine too busy to schedule it:
    // the command is long gone before its output reaches the file. With no process of the
    // command left, the copy is awaited, not cut after the background-job grace.
    const cwd = await scratch();
    const bin = await scratch();
    const realDd = execFileSync('/bin/sh', ['-c', 'command -v dd'], { encoding: 'utf8' }).trim();
    await writeFile(join(bin, 'dd'), `#!/bin/sh\nsleep 0.3\nexec ${realDd} "$@"\n`, { mode: 0o755 });
    const { stdout } = await runScript({ cwd, command: 'echo hello; echo oops >&2' }, `${bin}:${process.env.PATH}`);
    const outcome = parseCommandOutput(stdout, 1024);
    if (outcome.kind !== 'result') throw new Error(`unexpected ${outcome.kind}`);
    expect(Buffer.from(outcome.result.stdout).toString()).toBe('hello\n');
    expect(Buffer.from(outcome.result.stderr).toString()).toBe('oops\n');
  });

  it('reports a missing cwd instead of running elsewhere', async () => {
    const cwd = await scratch();
    const { stdout } = await runScript({ cwd: join(cwd, 'missing'), command: 'touch should-not-exist' });
    expect(parseCommandOutput(stdout, 1024)).toEqual({ kind: 'cwd_missing' });
  });
});
