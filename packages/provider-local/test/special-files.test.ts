import { execFileSync } from 'node:child_process';
import { closeSync, constants, openSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RuntimectlError, type ProviderBackend } from '@runtimectl/core';
import { createBackend, localProvider, useTemporaryDirectories, utf8 } from './local-fixture';

/** More than libuv's default thread pool (4): with a blocking open() every later file call would wait. */
const FIFO_COUNT = 6;
const QUICKLY_MS = 2_000;

/** `work`'s outcome, or 'hung' when it takes longer than QUICKLY_MS (so a regression fails fast instead of hanging). */
async function settledQuickly(work: Promise<unknown>): Promise<{ error?: unknown; value?: unknown } | 'hung'> {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<'hung'>((resolve) => {
    timer = setTimeout(() => resolve('hung'), QUICKLY_MS);
  });
  try {
    return await Promise.race([work.then((value) => ({ value }), (error: unknown) => ({ error })), hung]);
  } finally {
    clearTimeout(timer);
  }
}

function expectRefusedAsNotRegular(outcome: Awaited<ReturnType<typeof settledQuickly>>, path: string): void {
  expect(outcome, `${path} must be answered within ${QUICKLY_MS} ms`).not.toBe('hung');
  const { error } = outcome as { error?: unknown };
  expect(RuntimectlError.isInstance(error), String(error)).toBe(true);
  expect((error as RuntimectlError).code).toBe('invalid_request');
  expect((error as RuntimectlError).message).toContain('not a regular file');
  expect((error as RuntimectlError).details).toEqual({ path });
}

describe('local provider special files', () => {
  const temporary = useTemporaryDirectories();
  const fifos: string[] = [];

  // A version that blocks in open() would leave thread-pool threads stuck forever: opening both
  // ends without blocking, from the main thread, releases any reader or writer waiting.
  afterEach(() => {
    for (const fifo of fifos.splice(0)) {
      const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
      closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
      closeSync(reader);
    }
  });

  async function backendWithFifos(): Promise<{ backend: ProviderBackend; names: string[]; directory: string }> {
    const { provider } = await localProvider(temporary);
    const { backend, directory } = await createBackend(provider);
    const names = Array.from({ length: FIFO_COUNT }, (_, index) => `pipe-${index}`);
    for (const name of names) {
      execFileSync('mkfifo', [join(directory, name)]);
      fifos.push(join(directory, name));
    }
    return { backend, names, directory };
  }

  it('refuses to read FIFOs quickly, and file calls still answer afterwards', async () => {
    const { backend, names, directory } = await backendWithFifos();
    const outcomes = await Promise.all(names.map((name) => settledQuickly(backend.readBytes(name))));
    outcomes.forEach((outcome, index) => expectRefusedAsNotRegular(outcome, names[index]!));
    expect(await settledQuickly(stat(directory)), 'the thread pool is free').not.toBe('hung');
    expect(await settledQuickly(backend.writeBytes('after.txt', utf8('still served')))).toEqual({
      value: { path: 'after.txt', created: true },
    });
  });

  it('refuses to write onto an existing FIFO quickly and leaves it a FIFO', async () => {
    const { backend, names, directory } = await backendWithFifos();
    const outcomes = await Promise.all(names.map((name) => settledQuickly(backend.writeBytes(name, utf8('x')))));
    outcomes.forEach((outcome, index) => expectRefusedAsNotRegular(outcome, names[index]!));
    expect((await stat(join(directory, names[0]!))).isFIFO()).toBe(true);
  });

  it('refuses to export FIFOs quickly', async () => {
    const { backend, names } = await backendWithFifos();
    const outcomes = await Promise.all(names.map((name) => settledQuickly(backend.export(name))));
    outcomes.forEach((outcome, index) => expectRefusedAsNotRegular(outcome, names[index]!));
  });

  it('stat reports a FIFO as kind other without opening it', async () => {
    const { backend, names, directory } = await backendWithFifos();
    expect(await settledQuickly(backend.stat(names[0]!))).toMatchObject({ value: { exists: true, kind: 'other', sizeBytes: 0 } });
  });

  it.runIf(process.getuid?.() === 0)('refuses to read or write a character device made inside the workspace', async () => {
    const { provider } = await localProvider(temporary);
    const { backend, directory } = await createBackend(provider);
    // /dev/zero's numbers (1, 5): reading it whole would never end.
    execFileSync('mknod', [join(directory, 'zero'), 'c', '1', '5']);
    expectRefusedAsNotRegular(await settledQuickly(backend.readBytes('zero')), 'zero');
    expectRefusedAsNotRegular(await settledQuickly(backend.writeBytes('zero', utf8('x'))), 'zero');
    expectRefusedAsNotRegular(await settledQuickly(backend.export('zero')), 'zero');
  });
});
