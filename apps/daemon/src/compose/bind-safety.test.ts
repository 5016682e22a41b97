import { describe, expect, it } from 'vitest';
import { assertSafeBind } from './bind-safety';

describe('bind safety', () => {
  it('refuses a non-loopback bind without auth unless told to, and says why', () => {
    expect(() => assertSafeBind('0.0.0.0', false, false)).toThrow(/without authentication.*--allow-insecure-bind/);
    expect(() => assertSafeBind('0.0.0.0', true, false)).not.toThrow();
    expect(() => assertSafeBind('0.0.0.0', false, true)).not.toThrow();
    expect(() => assertSafeBind('127.0.0.1', false, false)).not.toThrow();
  });
});
