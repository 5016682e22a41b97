/** Polls `check` until it returns true or `timeoutMs` passes; for effects that land asynchronously (exits, kills). */
import { setTimeout as delay } from 'node:timers/promises';

export async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 5_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await delay(50);
  }
  return check();
}
