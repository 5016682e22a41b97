import { hasChromium, SKIP_LINE } from './chromium-path';

/** Runs once per vitest run (not per file): the skip reason is printed once, not eleven times. */
export function setup(): void {
  if (!hasChromium) console.log(SKIP_LINE);
}
