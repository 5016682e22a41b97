import { ProgressNotificationSchema, type Progress } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMcpHarness, type McpHarness } from './mcp-harness';

let harness: McpHarness;
const RUNTIME = 'rt-progress';
const HEARTBEAT_MS = 40;

beforeAll(async () => {
  // `sleep-300ms` takes 300 ms: long enough for heartbeats every HEARTBEAT_MS.
  const execHandler = async (request: { command: string }) => {
    if (request.command !== 'sleep-300ms') return undefined;
    await new Promise((resolve) => setTimeout(resolve, 300));
    return { stdout: 'slept\n' };
  };
  harness = await startMcpHarness({ runtimeId: RUNTIME, progressIntervalMs: HEARTBEAT_MS, provider: { execHandler } });
  await harness.api.open({ runtime_id: RUNTIME, conversation_id: 'c', sender_id: 's' });
});
afterAll(() => harness?.close());

/** Calls a tool with a progress token (the SDK client sends one when given `onprogress`); the answer and the notifications received before it. */
async function callWithProgress(name: string, args: Record<string, unknown>) {
  const notifications: Progress[] = [];
  const result = await harness.mcp.callTool({ name, arguments: args }, undefined, { onprogress: (progress) => notifications.push(progress) });
  return { result: result as { isError?: boolean; structuredContent?: any }, notifications };
}

describe('progress notifications', () => {
  it('exec with a progress token reports its start, then its end as complete (total = progress), all before the answer', async () => {
    const { result, notifications } = await callWithProgress('exec', { runtime_id: RUNTIME, command: 'echo hi' });
    expect(result.structuredContent).toMatchObject({ stdout: 'hi\n', exit_code: 0 });
    expect(notifications[0]).toEqual({ progress: 0, message: 'exec: started' });
    const last = notifications.at(-1)!;
    expect(notifications.length).toBeGreaterThanOrEqual(2);
    expect(last).toEqual({ progress: notifications.length - 1, total: notifications.length - 1, message: expect.stringMatching(/^exec: done in \d+\.\d s$/) });
  });

  it('a long exec says it is still running every progressIntervalMs, its progress rising with each notification', async () => {
    const { result, notifications } = await callWithProgress('exec', { runtime_id: RUNTIME, command: 'sleep-300ms' });
    expect(result.structuredContent).toMatchObject({ stdout: 'slept\n' });
    const running = notifications.filter((notification) => notification.message!.startsWith('exec: running for '));
    expect(running.length).toBeGreaterThanOrEqual(2);
    expect(notifications.map((notification) => notification.progress)).toEqual(notifications.map((_, index) => index));
  });

  it('a fork of count 3 reports its start and its end, naming the three runtimes it makes', async () => {
    const { result, notifications } = await callWithProgress('fork', { runtime_id: RUNTIME, count: 3 });
    expect(result.structuredContent.results).toHaveLength(3);
    expect(notifications[0]).toEqual({ progress: 0, message: 'fork ×3: started' });
    expect(notifications.at(-1)).toMatchObject({ total: notifications.length - 1, message: expect.stringMatching(/^fork ×3: done in /) });
  });

  it('an operation the daemon refuses ends its progress as failed, and the call is still a tool error naming the code', async () => {
    const { result, notifications } = await callWithProgress('pause', { runtime_id: 'rt-nowhere' });
    expect(result.isError).toBe(true);
    expect(notifications.map((notification) => notification.message)).toEqual(['pause: started', expect.stringMatching(/^pause: failed after /)]);
  });

  it('a call without a progress token gets no notification', async () => {
    const quiet = await startMcpHarness({ progressIntervalMs: HEARTBEAT_MS });
    try {
      const received: unknown[] = [];
      quiet.mcp.setNotificationHandler(ProgressNotificationSchema, (notification) => void received.push(notification));
      await quiet.api.open({ runtime_id: 'rt-quiet', conversation_id: 'c', sender_id: 's' });
      await quiet.mcp.callTool({ name: 'exec', arguments: { runtime_id: 'rt-quiet', command: 'echo hi' } });
      expect(received).toEqual([]);
    } finally {
      await quiet.close();
    }
  });
});
