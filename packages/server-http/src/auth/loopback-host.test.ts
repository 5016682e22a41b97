import { describe, expect, it } from 'vitest';
import { isLoopbackHost } from './loopback-host';

describe('isLoopbackHost', () => {
  it('knows the loopback addresses', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', '::1', 'localhost']) expect(isLoopbackHost(host)).toBe(true);
    for (const host of ['0.0.0.0', '10.0.0.1', '::', 'example.com', 'localhost.example.com', '127.0.0.1.nip.io']) expect(isLoopbackHost(host)).toBe(false);
  });
});
