import { describe, expect, it } from 'vitest';
import { createHarness, rejectionOf } from './harness';

describe('read-file size limit', () => {
  it('answers a file up to the configured limit and refuses a bigger one with payload_too_large naming export', async () => {
    const harness = createHarness({ files: { readMaxBytes: 16 } });
    const runtimeId = await harness.open();
    await harness.write(runtimeId, 'fits.txt', 'x'.repeat(16));
    await harness.write(runtimeId, 'big.txt', 'x'.repeat(17));
    expect(await harness.read(runtimeId, 'fits.txt')).toBe('x'.repeat(16));
    const error = await rejectionOf(harness.read(runtimeId, 'big.txt'));
    expect(error.code).toBe('payload_too_large');
    expect(error.message).toContain('export');
    expect(error.details).toEqual({ path: 'big.txt', max_bytes: 16 });
  });

  it('passes an 8 MiB limit to the provider by default', async () => {
    const harness = createHarness();
    const runtimeId = await harness.open();
    await harness.write(runtimeId, 'big.bin', 'x'.repeat(8 * 1024 * 1024 + 1));
    expect((await rejectionOf(harness.read(runtimeId, 'big.bin'))).code).toBe('payload_too_large');
  });

  it('grep passes over files bigger than the read-file limit instead of reading them whole', async () => {
    const harness = createHarness({ files: { readMaxBytes: 16 } });
    const runtimeId = await harness.open();
    await harness.write(runtimeId, 'fits.txt', 'needle'.padEnd(16, '.'));
    await harness.write(runtimeId, 'big.txt', 'needle'.padEnd(17, '.'));
    const answer = await harness.service.search({ runtime_id: runtimeId, grep: { query: 'needle', mode: 'files_with_matches' } });
    expect(answer).toEqual({ paths: ['fits.txt'], truncated: false });
  });
});
