import { expect } from 'vitest';
import { conformanceArea } from './conformance-area';
import type { ProviderConformanceOptions } from './conformance-options';
import { allByteValues, collect, expectRuntimectlError, expectSameBytes, pseudoRandomBytes } from './expect-helpers';

/** export: streams a file out with its base name and size. */
export function exportTests(options: ProviderConformanceOptions): void {
  conformanceArea(options, 'export', ({ harness, test }) => {
    test('export streams the exact bytes with the base name and size', async () => {
      const { backend } = await harness.createBackend();
      await backend.writeBytes('out/report.bin', allByteValues());
      const exported = await backend.export('out/report.bin');
      expect(exported.fileName).toBe('report.bin');
      expect(exported.sizeBytes).toBe(256);
      expect([...(await collect(exported.content))]).toEqual([...allByteValues()]);
    });

    test('export of a 5 MiB file streams it byte-exact', async () => {
      const { backend } = await harness.createBackend();
      const bytes = pseudoRandomBytes(5 * 1024 * 1024, 7);
      await backend.writeBytes('large.bin', bytes);
      const exported = await backend.export('large.bin');
      expect(exported.sizeBytes).toBe(bytes.byteLength);
      expectSameBytes(await collect(exported.content), bytes);
    });

    test('export of an empty file streams nothing', async () => {
      const { backend } = await harness.createBackend();
      await backend.writeBytes('empty.txt', new Uint8Array());
      const exported = await backend.export('empty.txt');
      expect(exported.sizeBytes).toBe(0);
      expect((await collect(exported.content)).byteLength).toBe(0);
    });

    test('export of a missing file fails with path_not_found naming the path', async () => {
      const { backend } = await harness.createBackend();
      const error = await expectRuntimectlError(backend.export('nowhere/missing.txt'), 'path_not_found');
      expect(error.details).toEqual({ path: 'nowhere/missing.txt' });
    });
  });
}
