import { randomBytes } from 'node:crypto';
import { afterAll, afterEach } from 'vitest';
import { RuntimectlError, type BackendCreateRequest } from '@runtimectl/core';
import { startE2BEmulator, type E2BEmulator, type E2BEmulatorOptions } from '@runtimectl/e2b-emulator';
import { withinDeadline } from '@runtimectl/testkit/server-process';
import { createE2BProvider, type E2BProvider, type E2BProviderSettings } from '../../src/index';

/** A key shaped like E2B's, unique per run, so a test can search for it in what the provider produced. */
export const TEST_API_KEY = `e2b_${randomBytes(20).toString('hex')}`;

/** A bound on the emulator's start (its isolation probe builds a real sandbox): a module-level await has no test timeout. */
const START_DEADLINE_MS = 120_000;

/** Starts one emulator for the test file (under a deadline) and stops it (killing every sandbox) after the file. */
export async function useEmulator(options: E2BEmulatorOptions = {}): Promise<E2BEmulator> {
  const emulator = await withinDeadline({ server: 'the e2b emulator', phase: 'start', deadlineMs: START_DEADLINE_MS }, () => startE2BEmulator(options), (late) => late.close());
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

/**
 * A maker of providers on `emulator` for the tests of one file: after each test every provider it
 * made is disposed (keep-alives and sweeps stopped) and the emulator's counters and faults reset.
 */
export function useProviders(emulator: E2BEmulator): (settings?: Partial<E2BProviderSettings>) => E2BProvider {
  const made: E2BProvider[] = [];
  afterEach(async () => {
    for (const provider of made.splice(0)) provider.dispose();
    await emulator.reset();
  });
  return (settings = {}) => {
    const provider = emulatorProvider(emulator, settings);
    made.push(provider);
    return provider;
  };
}

/** A create request as core's backend manager makes it: a fresh backend id and ownership labels. */
export function createRequest(installation: string, options: Record<string, unknown> = {}): BackendCreateRequest {
  const backendId = `bkd_${randomBytes(16).toString('hex')}`;
  const runtimeId = `rt-${backendId.slice(4, 12)}`;
  return {
    backendId,
    runtimeId,
    options,
    labels: { runtimectl_installation: installation, runtimectl_runtime_id: runtimeId, runtimectl_backend_id: backendId },
  };
}

/** What `work` rejected with; fails the test when it resolved. */
export async function rejectionOf(work: Promise<unknown>): Promise<unknown> {
  return work.then(
    () => {
      throw new Error('expected the call to fail, but it resolved');
    },
    (error: unknown) => error,
  );
}

/** The runtimectl error `work` rejected with (checked across package copies with `isInstance`). */
export async function runtimectlErrorOf(work: Promise<unknown>): Promise<RuntimectlError> {
  const error = await rejectionOf(work);
  if (!RuntimectlError.isInstance(error)) throw new Error(`expected a runtimectl error, got ${String(error)}`, { cause: error });
  return error;
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
