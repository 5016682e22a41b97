/**
 * Runs `task(0)` … `task(count - 1)` with at most `bound` in flight at once and settles every
 * one (a failure does not stop the others); results are in task order.
 */
export async function settleBounded<T>(
  count: number,
  bound: number,
  task: (index: number) => Promise<T>,
): Promise<PromiseSettledResult<T>[]> {
  const results = new Array<PromiseSettledResult<T>>(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = next;
      next += 1;
      try {
        results[index] = { status: 'fulfilled', value: await task(index) };
      } catch (reason) {
        results[index] = { status: 'rejected', reason };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(bound, count)) }, worker));
  return results;
}
