/**
 * Starts one emulator per test file and hands out the real SDK's connection options.
 * On teardown the emulator is closed and the test fails if any sandbox or snapshot
 * directory survived.
 */
import { existsSync } from 'node:fs';
import type { ConnectionOpts } from 'e2b';
import { afterAll, beforeAll, expect } from 'vitest';
import { startE2BEmulator, type E2BEmulator, type E2BEmulatorOptions } from '../../src/index.js';

export interface EmulatorFixture {
  readonly emulator: E2BEmulator;
  /** Options for every SDK call: non-debug, any key, both URLs on the emulator. */
  readonly sdk: ConnectionOpts;
}

export function useEmulator(options: E2BEmulatorOptions = {}): EmulatorFixture {
  let emulator: E2BEmulator | undefined;
  beforeAll(async () => {
    emulator = await startE2BEmulator(options);
  });
  afterAll(async () => {
    if (!emulator) return;
    await emulator.close();
    expect(existsSync(emulator.root)).toBe(false);
  });
  return {
    get emulator(): E2BEmulator {
      if (!emulator) throw new Error('the emulator is not started yet');
      return emulator;
    },
    get sdk(): ConnectionOpts {
      if (!emulator) throw new Error('the emulator is not started yet');
      return { apiKey: 'e2b_test_key', apiUrl: emulator.apiUrl, sandboxUrl: emulator.sandboxUrl, debug: false };
    },
  };
}
