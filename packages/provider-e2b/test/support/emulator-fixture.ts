import { randomBytes } from 'node:crypto';
import { afterAll } from 'vitest';
import { startE2BEmulator, type E2BEmulator, type E2BEmulatorOptions } from '@runtimectl/e2b-emulator';
import { createE2BProvider, type E2BProvider, type E2BProviderSettings } from '../../src/index';

/** A key shaped like E2B's, unique per run, so a test can search for it in what the provider produced. */
export const TEST_API_KEY = `e2b_${randomBytes(20).toString('hex')}`;

/** Starts one emulator for the test file and stops it (killing every sandbox) after the file. */
export async function useEmulator(options: E2BEmulatorOptions = {}): Promise<E2BEmulator> {
  const emulator = await startE2BEmulator(options);
  afterAll(() => emulator.close());
  return emulator;
}

/** An E2B provider pointed at `emulator` (key, control plane and envd), with `settings` on top. */
export function emulatorProvider(emulator: E2BEmulator, settings: Partial<E2BProviderSettings> = {}): E2BProvider {
  return createE2BProvider({
    apiKey: TEST_API_KEY,
    apiUrl: emulator.apiUrl,
    sandboxUrl: emulator.sandboxUrl,
    requestTimeoutMs: 20_000,
    ...settings,
  });
}

/** Polls `check` every 50 ms until it holds or `withinMs` passed; resolves with the last answer. */
export async function eventually(check: () => Promise<boolean> | boolean, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
