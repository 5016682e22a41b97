import { randomBytes } from 'node:crypto';
import { posix } from 'node:path';
import { expect } from 'vitest';
import type { ExecRequest, ProviderBackend } from '@runtimectl/core';
import { conformanceArea } from './conformance-area';
import type { ProviderConformanceOptions } from './conformance-options';
import { allByteValues, pseudoRandomBytes, text } from './expect-helpers';
import { pacedLinesCommand, pacedLinesOutput, seqOutput } from './paced-output';

const CAP = 64 * 1024;
const NEEDS_POSIX_SHELL = 'needs capabilities.posixShell: a real POSIX shell with background jobs, kill and trap';

const run = (backend: ProviderBackend, command: string, extra: Partial<ExecRequest> = {}) =>
  backend.exec({ command, maxOutputBytes: CAP, timeoutMs: 20_000, ...extra });

/** Polls, inside the backend, until the process `pid` is gone (a zombie counts as gone). */
async function waitUntilGone(backend: ProviderBackend, pid: number, withinMs: number): Promise<boolean> {
  const probe =
    `if kill -0 ${pid} 2>/dev/null; then ` +
    `state=$(sed -n 's/^.*) \\(.\\).*$/\\1/p' /proc/${pid}/stat 2>/dev/null); ` +
    `if [ "$state" = Z ]; then echo gone; else echo alive; fi; else echo gone; fi`;
  const deadline = Date.now() + withinMs;
  for (;;) {
    const result = await run(backend, probe);
    if (text(result.stdout).trim() === 'gone') return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * exec. The portable tests only use commands a POSIX shell and the memory provider's built-in
 * command set run alike (`echo`, `echo … >&2`, `exit N`, `false`, `pwd`, `printenv NAME`,
 * `cat PATH`, `sleep N`, `seq FIRST LAST`, any of them `>&2`). Tests that need a real shell run only
 * with `capabilities.posixShell`.
 */
export function execTests(options: ProviderConformanceOptions): void {
  conformanceArea(options, 'exec', ({ harness, test, options: resolved }) => {
    const { killWithinMs } = resolved.timeouts;
    const posixTest = (name: string, fn: () => Promise<void>) =>
      test(name, async (context) => {
        context.skip(!resolved.capabilities.posixShell, NEEDS_POSIX_SHELL);
        await fn();
      });

    test('stdout is captured on its own, with exit code 0', async () => {
      const { backend } = await harness.createBackend();
      const result = await run(backend, 'echo hello world');
      expect(text(result.stdout)).toBe('hello world\n');
      expect(result.stderr.byteLength).toBe(0);
      expect(result).toMatchObject({ exitCode: 0, timedOut: false, truncated: false });
    });

    test('stderr is captured apart from stdout', async () => {
      const { backend } = await harness.createBackend();
      const result = await run(backend, 'echo something failed >&2');
      expect(text(result.stderr)).toBe('something failed\n');
      expect(result.stdout.byteLength).toBe(0);
    });

    test('a non-zero exit is a result, not an error', async () => {
      const { backend } = await harness.createBackend();
      expect((await run(backend, 'exit 3')).exitCode).toBe(3);
      expect((await run(backend, 'false')).exitCode).toBe(1);
    });

    test('the command runs in the workspace root by default and in cwd when given', async () => {
      const { backend } = await harness.createBackend();
      await backend.createDirAll('sub/dir');
      expect(text((await run(backend, 'pwd')).stdout)).toBe(`${backend.workspaceRoot}\n`);
      expect(text((await run(backend, 'pwd', { cwd: 'sub/dir' })).stdout)).toBe(`${posix.join(backend.workspaceRoot, 'sub/dir')}\n`);
    });

    test('the request env reaches the command', async () => {
      const { backend } = await harness.createBackend();
      const result = await run(backend, 'printenv GREETING', { env: { GREETING: 'hello from env' } });
      expect(text(result.stdout)).toBe('hello from env\n');
    });

    test('the provider process environment does not leak into commands', async () => {
      const { backend } = await harness.createBackend();
      const name = `RUNTIMECTL_CONFORMANCE_SECRET_${randomBytes(4).toString('hex').toUpperCase()}`;
      process.env[name] = 'must-not-leak';
      try {
        const result = await run(backend, `printenv ${name}`);
        expect(text(result.stdout)).toBe('');
        expect(result.exitCode).not.toBe(0);
      } finally {
        delete process.env[name];
      }
    });

    test('files written through the API are visible to commands, binary bytes unchanged', async () => {
      const { backend } = await harness.createBackend();
      await backend.writeBytes('bytes.bin', allByteValues());
      const result = await run(backend, 'cat bytes.bin');
      expect([...result.stdout]).toEqual([...allByteValues()]);
    });

    test('a command past its timeout is killed and reports timedOut with no exit code', async () => {
      const { backend } = await harness.createBackend();
      const startedAt = Date.now();
      const result = await run(backend, 'sleep 30', { timeoutMs: 300 });
      expect(result.timedOut).toBe(true);
      expect(result.exitCode).toBeNull();
      // Killed, not run to its end: `sleep 30` would take 30 s. (killWithinMs is what a provider
      // promises on an idle machine; a loaded CI machine may stretch it, so it is not asserted here.)
      expect(Date.now() - startedAt).toBeLessThan(300 + Math.max(killWithinMs, 20_000));
    });

    test('stdout beyond maxOutputBytes is cut at the cap and flagged truncated', async () => {
      const { backend } = await harness.createBackend();
      const content = pseudoRandomBytes(1024 * 1024);
      await backend.writeBytes('big.bin', content);
      const result = await run(backend, 'cat big.bin', { maxOutputBytes: 4096 });
      expect(result.truncated).toBe(true);
      expect(result.exitCode).toBe(0);
      expect([...result.stdout]).toEqual([...content.subarray(0, 4096)]);
    });

    test('stderr beyond maxOutputBytes is cut at the cap and flagged truncated', async () => {
      const { backend } = await harness.createBackend();
      const word = 'x'.repeat(300);
      const result = await run(backend, `echo ${word} >&2`, { maxOutputBytes: 100 });
      expect(result.truncated).toBe(true);
      expect(text(result.stderr)).toBe(word.slice(0, 100));
    });

    test('output of exactly maxOutputBytes is kept whole and not flagged truncated', async () => {
      const { backend } = await harness.createBackend();
      const result = await run(backend, 'echo abc', { maxOutputBytes: 4 });
      expect(text(result.stdout)).toBe('abc\n');
      expect(result.truncated).toBe(false);
    });

    test('output written in many small pieces arrives whole, stdout and stderr', async () => {
      const { backend } = await harness.createBackend();
      const expected = seqOutput(1, 20_000);
      const out = await run(backend, 'seq 1 20000', { maxOutputBytes: 1024 * 1024 });
      expect(out).toMatchObject({ exitCode: 0, truncated: false });
      expect(out.stdout.byteLength).toBe(expected.length);
      expect(text(out.stdout)).toBe(expected);
      const err = await run(backend, 'seq 1 20000 >&2', { maxOutputBytes: 1024 * 1024 });
      expect(err).toMatchObject({ exitCode: 0, truncated: false });
      expect(text(err.stderr)).toBe(expected);
    });

    for (const stream of ['stdout', 'stderr'] as const) {
      test(`${stream} written in many small pieces past the cap is exactly the cap, flagged truncated`, async () => {
        const { backend } = await harness.createBackend();
        const result = await run(backend, stream === 'stdout' ? 'seq 1 100000' : 'seq 1 100000 >&2', { maxOutputBytes: 200_000 });
        expect(result).toMatchObject({ exitCode: 0, truncated: true });
        expect(result[stream].byteLength).toBe(200_000);
        expect(text(result[stream])).toBe(seqOutput(1, 100_000).slice(0, 200_000));
      });
    }

    posixTest('output written line by line over time arrives whole, stdout and stderr', async () => {
      const { backend } = await harness.createBackend();
      const out = await run(backend, pacedLinesCommand(40, 0.02, 'stdout'), { maxOutputBytes: 1024 * 1024 });
      expect(out).toMatchObject({ exitCode: 0, truncated: false });
      expect(text(out.stdout)).toBe(pacedLinesOutput(40));
      const err = await run(backend, pacedLinesCommand(40, 0.02, 'stderr'), { maxOutputBytes: 1024 * 1024 });
      expect(err).toMatchObject({ exitCode: 0, truncated: false });
      expect(text(err.stderr)).toBe(pacedLinesOutput(40));
    });

    posixTest('output written line by line over time past the cap is exactly the cap, flagged truncated', async () => {
      const { backend } = await harness.createBackend();
      const out = await run(backend, pacedLinesCommand(40, 0.01, 'stdout'), { maxOutputBytes: 100 });
      expect(out).toMatchObject({ exitCode: 0, truncated: true });
      expect(text(out.stdout)).toBe(pacedLinesOutput(40).slice(0, 100));
      const err = await run(backend, pacedLinesCommand(40, 0.01, 'stderr'), { maxOutputBytes: 100 });
      expect(err).toMatchObject({ exitCode: 0, truncated: true });
      expect(text(err.stderr)).toBe(pacedLinesOutput(40).slice(0, 100));
    });

    posixTest('a background job one command starts is still running at the next command', async () => {
      const { backend } = await harness.createBackend();
      await run(backend, 'sleep 60 >/dev/null 2>&1 & echo $! > background.pid');
      const result = await run(backend, 'kill -0 "$(cat background.pid)" && echo running');
      expect(text(result.stdout)).toBe('running\n');
    });

    posixTest('the timeout kills the whole process tree, not just the shell', async () => {
      const { backend } = await harness.createBackend();
      const result = await run(backend, 'sleep 30 & echo $! > child.pid; wait', { timeoutMs: 500 });
      expect(result.timedOut).toBe(true);
      const child = Number(text(await backend.readBytes('child.pid')).trim());
      expect(child).toBeGreaterThan(1);
      expect(await waitUntilGone(backend, child, killWithinMs)).toBe(true);
    });

    posixTest('a command that ignores SIGTERM is still killed after the grace period', async () => {
      const { backend } = await harness.createBackend();
      const startedAt = Date.now();
      const result = await run(backend, "trap '' TERM; sleep 30 & echo $! > stubborn.pid; wait; wait", { timeoutMs: 300 });
      expect(result).toMatchObject({ timedOut: true, exitCode: null });
      expect(Date.now() - startedAt).toBeLessThan(300 + killWithinMs);
      const child = Number(text(await backend.readBytes('stubborn.pid')).trim());
      expect(await waitUntilGone(backend, child, killWithinMs)).toBe(true);
    });

    posixTest("a timed-out command's child that ignores SIGTERM is killed too, when the command's own shell exits at SIGTERM", async () => {
      const { backend } = await harness.createBackend();
      const result = await run(backend, `sh -c "trap '' TERM; exec sleep 30" & echo $! > stubborn.pid; wait`, { timeoutMs: 300 });
      expect(result).toMatchObject({ timedOut: true, exitCode: null });
      const child = Number(text(await backend.readBytes('stubborn.pid')).trim());
      expect(child).toBeGreaterThan(1);
      expect(await waitUntilGone(backend, child, killWithinMs)).toBe(true);
    });

    posixTest('output far beyond the cap is drained until the command exits on its own', async () => {
      const { backend } = await harness.createBackend();
      const result = await run(backend, 'head -c 67108864 /dev/zero; echo done >&2', { maxOutputBytes: 1024 });
      expect(result).toMatchObject({ exitCode: 0, timedOut: false, truncated: true });
      expect(result.stdout.byteLength).toBe(1024);
      expect(text(result.stderr)).toBe('done\n');
    });
  });
}
