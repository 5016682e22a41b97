import { describe, expect, it } from 'vitest';
import { StartSlots } from '../src/start-slots';

/** A task that runs until `finish` is called, recording when it began. */
function gatedTask(started: number[], index: number) {
  let finish!: () => void;
  const gate = new Promise<void>((resolve) => (finish = resolve));
  return { task: async () => (started.push(index), await gate, index), finish };
}

describe('bounded concurrent starts', () => {
  it('runs at most `limit` tasks at once and lets the waiting ones in first come, first served', async () => {
    const slots = new StartSlots(2);
    const started: number[] = [];
    const tasks = [0, 1, 2, 3, 4].map((index) => gatedTask(started, index));
    const results = tasks.map(({ task }) => slots.run(task));
    await Promise.resolve();
    expect(started).toEqual([0, 1]);
    tasks[1]!.finish();
    await results[1];
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([0, 1, 2]);
    for (const { finish } of tasks) finish();
    expect(await Promise.all(results)).toEqual([0, 1, 2, 3, 4]);
    expect(started).toEqual([0, 1, 2, 3, 4]);
  });

  it('frees the slot of a task that failed', async () => {
    const slots = new StartSlots(1);
    await expect(slots.run(() => Promise.reject(new Error('setup failed')))).rejects.toThrow('setup failed');
    expect(await slots.run(async () => 'next')).toBe('next');
  });
});
