import { expect } from 'vitest';
import type { ProviderBackend } from '@runtimectl/core';
import { conformanceArea } from './conformance-area';
import type { ProviderConformanceOptions } from './conformance-options';
import { expectRuntimectlError, text, utf8 } from './expect-helpers';

const LIMIT = 64 * 1024;
const FIFO_COUNT = 6;
/** A refusal must come at once; a provider that blocks on a FIFO fails here instead of hanging the suite. */
const QUICKLY_MS = 2_000;
const NEEDS_SPECIAL_FILES = 'needs capabilities.specialFiles: commands make FIFOs that this process would open';

function quickly<T>(work: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${QUICKLY_MS} ms`)), QUICKLY_MS);
  });
  return Promise.race([work, hung]).finally(() => clearTimeout(timer));
}

async function makeFifos(backend: ProviderBackend): Promise<string[]> {
  const names = Array.from({ length: FIFO_COUNT }, (_, index) => `pipe-${index}`);
  const made = await backend.exec({ command: `mkfifo ${names.join(' ')}`, maxOutputBytes: 1024 });
  expect(made.exitCode, text(made.stderr)).toBe(0);
  return names;
}

/** Opens each FIFO read-write (never blocks on Linux) and closes it: frees whatever a broken provider left waiting on one. */
function releaseFifos(backend: ProviderBackend, names: string[]): Promise<unknown> {
  const script = names.map((name) => `exec 3<>${name}; exec 3>&-`).join('; ');
  return quickly(backend.exec({ command: script, maxOutputBytes: 1024 }), 'releasing the FIFOs').catch(() => undefined);
}

/**
 * read_bytes' size limit (every provider), and special files (with `capabilities.specialFiles`):
 * the file API never blocks on a FIFO, so one runtime's commands cannot freeze the others.
 */
export function fileLimitsTests(options: ProviderConformanceOptions): void {
  conformanceArea(options, 'file limits and special files', ({ harness, test, options: resolved }) => {
    test('read with maxBytes answers a file of exactly maxBytes whole', async () => {
      const { backend } = await harness.createBackend();
      await backend.writeBytes('exact.bin', new Uint8Array(LIMIT).fill(7));
      expect((await backend.readBytes('exact.bin', { maxBytes: LIMIT })).byteLength).toBe(LIMIT);
    });

    test('read of a file over maxBytes fails with payload_too_large naming the limit and export', async () => {
      const { backend } = await harness.createBackend();
      await backend.writeBytes('big.bin', new Uint8Array(LIMIT + 1));
      const error = await expectRuntimectlError(backend.readBytes('big.bin', { maxBytes: LIMIT }), 'payload_too_large');
      expect(error.details).toEqual({ path: 'big.bin', max_bytes: LIMIT });
      expect(error.message).toContain('export');
    });

    const specialTest = (name: string, fn: (backend: ProviderBackend, fifos: string[]) => Promise<void>) =>
      test(name, async (context) => {
        context.skip(!resolved.capabilities.specialFiles, NEEDS_SPECIAL_FILES);
        const { backend } = await harness.createBackend();
        const fifos = await makeFifos(backend);
        try {
          await fn(backend, fifos);
        } finally {
          await releaseFifos(backend, fifos);
        }
      });

    specialTest('read of FIFOs is refused at once with invalid_request, and file calls still answer', async (backend, fifos) => {
      for (const error of await Promise.all(fifos.map((name) => quickly(expectRuntimectlError(backend.readBytes(name), 'invalid_request'), `read ${name}`)))) {
        expect(error.message).toContain('not a regular file');
      }
      await quickly(backend.writeBytes('after.txt', utf8('still served')), 'a write after the FIFO reads');
      expect(text(await quickly(backend.readBytes('after.txt'), 'a read after the FIFO reads'))).toBe('still served');
    });

    specialTest('write onto an existing FIFO is refused at once and leaves it in place', async (backend, fifos) => {
      await Promise.all(fifos.map((name) => quickly(expectRuntimectlError(backend.writeBytes(name, utf8('x')), 'invalid_request'), `write ${name}`)));
      expect((await backend.stat(fifos[0]!)).kind).toBe('other');
    });

    specialTest('export of a FIFO is refused at once with invalid_request', async (backend, fifos) => {
      await Promise.all(fifos.map((name) => quickly(expectRuntimectlError(backend.export(name), 'invalid_request'), `export ${name}`)));
    });
  });
}
