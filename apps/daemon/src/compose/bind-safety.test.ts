import { describe, expect, it } from 'vitest';
import { assertSafeBind, isLoopbackHost } from './bind-safety';

describe('bind safety', () => {
  it('knows the loopback addresses', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', '::1', 'localhost']) expect(isLoopbackHost(host)).toBe(true);
    for (const host of ['0.0.0.0', '10.0.0.1', '::', 'example.com']) expect(isLoopbackHost(host)).toBe(false);
  });

  it('refuses a non-loopback bind without auth unless told to, and says why', () => {
    expect(() => assertSafeBind('0.0.0.0', false, false)).toThrow(/without authentication.*--allow-insecure-bind/);
    expect(() => assertSafeBind('0.0.0.0', true, false)).not.toThrow();
    expect(() => assertSafeBind('0.0.0.0', false, true)).not.toThrow();
    expect(() => assertSafeBind('127.0.0.1', false, false)).not.toThrow();
  });
});
