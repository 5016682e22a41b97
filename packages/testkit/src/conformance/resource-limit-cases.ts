import { expect } from 'vitest';
import type { ConformanceArea } from './conformance-area';
import { text } from './expect-helpers';

/** A fork bomb whose first shell waits for it: the command runs until the provider stops it. */
const FORK_BOMB = 'bomb() { bomb | bomb; }; bomb';
const NEEDS_LIMITS = 'needs options.limits: the limits the provider under test holds each backend to';

/** Stopped by a limit: no exit code (killed, or timed out) or a signal's (128 + n). */
const killed = (result: { exitCode: number | null; timedOut: boolean }) => result.exitCode === null || result.exitCode >= 128 || result.timedOut;

/**
 * Isolation v2 — resource limits (issue 31): a fork bomb stays within the process limit while
 * another backend's commands are answered, and is stopped; an allocation over the memory limit
 * is killed; the backend answers its next command. With `limits.reportsReason`, the answer says
 * which limit stopped it.
 */
export function resourceLimitCases({ harness, test, options }: ConformanceArea, skipReason: string | undefined): void {
  const limits = options.limits;

  test("a fork bomb is bounded by the process limit and stopped, and another backend's command is still answered", async (context) => {
    context.skip(skipReason !== undefined, skipReason);
    context.skip(!limits?.pids, NEEDS_LIMITS);
    const { backend: bomber } = await harness.createBackend();
    const { backend: innocent } = await harness.createBackend();
    await innocent.exec({ command: 'true', maxOutputBytes: 1024, timeoutMs: 20_000 });
    const bombing = bomber.exec({ command: FORK_BOMB, maxOutputBytes: 64 * 1024, timeoutMs: 10_000 });
    await new Promise((resolve) => setTimeout(resolve, 500));
    const answer = await innocent.exec({ command: 'echo still here', maxOutputBytes: 1024, timeoutMs: 20_000 });
    expect(text(answer.stdout)).toBe('still here\n');
    const result = await bombing;
    expect(killed(result), `the fork bomb's answer (exit ${result.exitCode}, timed out ${result.timedOut})`).toBe(true);
    if (limits?.reportsReason) expect(text(result.stderr)).toContain('process limit');
    const next = await bomber.exec({ command: 'echo recovered', maxOutputBytes: 1024, timeoutMs: 20_000 });
    expect(text(next.stdout)).toBe('recovered\n');
  });

  test('an allocation over the memory limit is killed, and the backend answers its next command', async (context) => {
    context.skip(skipReason !== undefined, skipReason);
    context.skip(!limits?.memoryBytes, NEEDS_LIMITS);
    const { backend } = await harness.createBackend();
    const bytes = 4 * limits!.memoryBytes!;
    const hog = await backend.exec({
      command: `command -v python3 >/dev/null || { echo no-python; exit 0; }; python3 -c "b = bytearray(${bytes}); print('survived')"`,
      maxOutputBytes: 64 * 1024,
      timeoutMs: 30_000,
    });
    context.skip(text(hog.stdout).includes('no-python'), 'needs python3 in the sandbox to allocate memory');
    expect(text(hog.stdout)).not.toContain('survived');
    expect(killed(hog), `the allocation's answer (exit ${hog.exitCode})`).toBe(true);
    if (limits?.reportsReason) expect(text(hog.stderr)).toContain('memory limit');
    expect(text((await backend.exec({ command: 'echo next', maxOutputBytes: 1024, timeoutMs: 20_000 })).stdout)).toBe('next\n');
  });
}
